import {
  type Adapter,
  type OtelSpanLike,
  type Span,
  spanFromOtel,
  type Triplet,
  ValidationError,
} from '@arclight/core';
import { compilePattern, type Pattern } from '../pattern.js';
import { findLlmCalls } from './llm-calls.js';
import { matchRewards, RewardMatchPolicy } from './match-rewards.js';
import { spanToTriplet } from './span-to-triplet.js';
import { buildTraceTree, repairHierarchy, type TraceTree } from './trace-tree.js';

/** What `TraceToTriplet` accepts: stored spans, or OpenTelemetry `ReadableSpan`s (as upstream does). */
export type TraceSource = readonly (Span | OtelSpanLike)[];

const isOtelSpan = (span: Span | OtelSpanLike): span is OtelSpanLike =>
  typeof (span as OtelSpanLike).spanContext === 'function';

/** Upstream: `ReadableSpan`s become spans with rollout/attempt `"dummy"` and sequence id 0. */
export function toStoredSpans(source: TraceSource): readonly Span[] {
  if (!source.some(isOtelSpan)) return source as readonly Span[];
  return source.map((span) => (isOtelSpan(span) ? spanFromOtel(span, 'dummy', 'dummy', 0) : span));
}

/** Options of {@link TraceToTriplet}; the defaults are upstream's. */
export interface TraceToTripletOptions {
  /** Re-parent top-level spans under the span that encloses them in time first. Default `true`. */
  repairHierarchy?: boolean;
  /** Span names that are LLM calls (searched anywhere in the name). Default `/openai\.chat\.completion/`. */
  llmCallMatch?: Pattern;
  /** Only LLM calls under an agent whose name matches; `null` (default) = every call. */
  agentMatch?: Pattern | null;
  /** Ignore LLM calls inside reward spans (e.g. an LLM judge). Default `true`. */
  excludeLlmCallInReward?: boolean;
  /** How reward spans are matched to calls. Default `'first_occurrence'`. */
  rewardMatch?: RewardMatchPolicy;
  /**
   * Drop calls without prompt or response token ids (upstream's private `_skip_empty_token_spans`, a
   * "hot-fix for Tinker+CrewAI"). Default `false`.
   */
  skipEmptyTokenSpans?: boolean;
}

export const DEFAULT_LLM_CALL_MATCH = /openai\.chat\.completion/;

const POLICIES: readonly string[] = Object.values(RewardMatchPolicy);

/**
 * Upstream `TracerTraceToTriplet`: the spans of one rollout attempt → one {@link Triplet} per LLM call, in
 * depth-first order of the (repaired) span tree, with the rewards matched to them (`null` where none).
 *
 * Pipeline: {@link buildTraceTree} → {@link repairHierarchy} (optional) → {@link findLlmCalls} →
 * {@link spanToTriplet} → {@link matchRewards}. Pass the spans in store order (`querySpans` returns them
 * by `sequence_id`): sibling order follows input order.
 */
export class TraceToTriplet implements Adapter<TraceSource, Triplet[]> {
  readonly repairHierarchy: boolean;
  readonly llmCallMatch: RegExp;
  readonly agentMatch: RegExp | null;
  readonly excludeLlmCallInReward: boolean;
  readonly rewardMatch: RewardMatchPolicy;
  readonly skipEmptyTokenSpans: boolean;

  constructor(options: TraceToTripletOptions = {}) {
    this.repairHierarchy = options.repairHierarchy ?? true;
    this.llmCallMatch = compilePattern(
      options.llmCallMatch ?? DEFAULT_LLM_CALL_MATCH,
      'llmCallMatch',
    );
    this.agentMatch =
      options.agentMatch === undefined || options.agentMatch === null
        ? null
        : compilePattern(options.agentMatch, 'agentMatch');
    this.excludeLlmCallInReward = options.excludeLlmCallInReward ?? true;
    this.rewardMatch = options.rewardMatch ?? RewardMatchPolicy.FIRST_OCCURRENCE;
    if (!POLICIES.includes(this.rewardMatch)) {
      throw new ValidationError(
        `rewardMatch: expected one of ${POLICIES.join(', ')}, got ${JSON.stringify(this.rewardMatch)}`,
      );
    }
    this.skipEmptyTokenSpans = options.skipEmptyTokenSpans ?? false;
  }

  /**
   * The span tree `adapt` works on (upstream `visualize` without the Graphviz rendering): built, and
   * repaired when `repairHierarchy` is on. Throws `ValidationError` for an empty span list.
   */
  buildTree(spans: TraceSource): TraceTree {
    const tree = buildTraceTree(toStoredSpans(spans));
    if (this.repairHierarchy) repairHierarchy(tree);
    return tree;
  }

  /**
   * The triplets of one trace (stored spans, or OpenTelemetry `ReadableSpan`s, converted as upstream does
   * with rollout/attempt `"dummy"`). Like upstream, an empty span list throws `ValidationError` (there is no
   * tree); malformed data upstream fails on (a reward attribute that is not `{name, value}`, a
   * non-JSON `logprobs.content`, times missing where they must be compared) throws `ValidationError` too.
   */
  adapt(spans: TraceSource): Triplet[] {
    return this.toTrajectory(this.buildTree(spans));
  }

  /** Upstream `TraceTree.to_trajectory` (with dedup on and no final reward). */
  toTrajectory(tree: TraceTree): Triplet[] {
    const calls = findLlmCalls(tree, {
      llmCallMatch: this.llmCallMatch,
      agentMatch: this.agentMatch,
      excludeLlmCallInReward: this.excludeLlmCallInReward,
      dedupLlmCall: true,
    });
    const kept: { node: TraceTree; triplet: Triplet }[] = [];
    for (const call of calls) {
      const triplet = spanToTriplet(call.node.span, call.agentName);
      if (this.skipEmptyTokenSpans && !(hasTokens(triplet.prompt) && hasTokens(triplet.response))) {
        continue;
      }
      kept.push({ node: call.node, triplet });
    }
    const rewards = matchRewards(
      tree,
      this.rewardMatch,
      kept.map((k) => k.node),
    );
    return kept.map(({ node, triplet }) => ({
      ...triplet,
      reward: (rewards.get(node.id) ?? null) as number | null,
    }));
  }
}

const hasTokens = (payload: unknown): boolean =>
  (payload as { token_ids: unknown[] }).token_ids.length > 0;

/** Upstream's name for {@link TraceToTriplet}. */
export const TracerTraceToTriplet = TraceToTriplet;
export type TracerTraceToTriplet = TraceToTriplet;
