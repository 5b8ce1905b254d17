import { findLlmCalls, TracerTraceToTriplet, type TraceTree } from '@arclight/adapter';
import type { Span, Triplet } from '@arclight/core';
import { LLM_CALL_NAME, spanKind } from './span-kind.js';

/** Export formats that need token ids, and those that need chat messages (`@arclight/export`). */
export const TOKEN_FORMATS = [
  'verl-jsonl',
  'verl-parquet',
  'verl-trajectory-jsonl',
  'verl-trajectory-parquet',
  'trl-sft-tokens',
];
export const MESSAGE_FORMATS = [
  'trl-sft',
  'trl-kto',
  'trl-dpo',
  'trl-prompt',
  'art',
  'openai-sft',
  'openai-dpo',
];

/** A triplet as the adapter builds it, with what the exports will make of it. */
export interface TripletView {
  index: number;
  span_id: string | null;
  triplet: Triplet;
  agent: string | null;
  prompt_ids: number;
  response_ids: number;
  has_logprobs: boolean;
  /** Why this triplet is left out of some export formats (`no_token_ids`, `no_messages`), with the formats. */
  left_out: { reason: string; explanation: string; formats: string[] }[];
}

/** An LLM call span the adapter did not turn into a triplet, and why. */
export interface SkippedCall {
  span_id: string;
  name: string;
  reason: string;
}

export interface AdapterView {
  triplets: TripletView[];
  skipped: SkippedCall[];
  /** The adapter's error, when it cannot read this trace at all. */
  error: string | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const listLength = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

function hasMessages(triplet: Triplet): boolean {
  const prompt = isRecord(triplet.prompt) ? triplet.prompt.raw_content : undefined;
  const completion = isRecord(triplet.response) ? triplet.response.raw_content : undefined;
  const count = (raw: unknown) =>
    Array.isArray(raw) ? raw.length : isRecord(raw) ? Object.keys(raw).length : 0;
  return count(prompt) > 0 && count(completion) > 0;
}

function leftOut(
  triplet: Triplet,
  promptIds: number,
  responseIds: number,
): TripletView['left_out'] {
  const out: TripletView['left_out'] = [];
  if (promptIds === 0 || responseIds === 0) {
    const missing =
      promptIds === 0 && responseIds === 0
        ? 'prompt and response'
        : promptIds === 0
          ? 'prompt'
          : 'response';
    out.push({
      reason: 'no_token_ids',
      explanation: `the call recorded no ${missing} token ids (ask the server for them: vLLM's return_token_ids, or the instrumentation's requestTokenIds)`,
      formats: TOKEN_FORMATS,
    });
  }
  if (!hasMessages(triplet)) {
    out.push({
      reason: 'no_messages',
      explanation:
        'the call recorded no prompt or no completion messages (gen_ai.prompt / gen_ai.completion)',
      formats: MESSAGE_FORMATS,
    });
  }
  return out;
}

/** Why `findLlmCalls` (default options) passed over an LLM-looking span; mirrors its rules in order. */
function skippedCalls(root: TraceTree, kept: Set<string>): SkippedCall[] {
  const skipped: SkippedCall[] = [];
  const seen = new Map<string, string>();
  const visit = (node: TraceTree, rewardSpan: string | null, llmParent: string | null): void => {
    const span = node.span;
    const a = span.attributes ?? {};
    const responseId =
      typeof a['gen_ai.response.id'] === 'string'
        ? (a['gen_ai.response.id'] as string)
        : typeof a['agentlightning.operation.output.id'] === 'string'
          ? (a['agentlightning.operation.output.id'] as string)
          : null;
    const nameMatches = LLM_CALL_NAME.test(span.name);
    let nextLlmParent = llmParent;
    if (kept.has(node.id)) {
      if (responseId !== null) seen.set(responseId, node.id);
      nextLlmParent = node.id;
    } else if (nameMatches || spanKind(span) === 'llm') {
      let reason: string;
      if (!nameMatches) {
        reason = `its name "${span.name}" does not match the adapter's llmCallMatch ${String(LLM_CALL_NAME)}`;
      } else if (rewardSpan !== null) {
        reason = `it runs inside reward span ${rewardSpan} (an LLM judge; excludeLlmCallInReward)`;
      } else if (responseId === null && llmParent !== null) {
        reason = `it is nested in LLM call ${llmParent} and has no response id (the same call recorded twice)`;
      } else if (responseId !== null && seen.has(responseId)) {
        reason = `its response id ${responseId} was already taken from span ${seen.get(responseId)} (duplicate)`;
      } else {
        reason = 'the adapter did not select it';
      }
      skipped.push({ span_id: node.id, name: span.name, reason });
    }
    const nextReward = rewardSpan ?? (node.isRewardSpan() ? node.id : null);
    for (const child of node.children) visit(child, nextReward, nextLlmParent);
  };
  visit(root, null, null);
  return skipped;
}

/** Runs the adapter (`TracerTraceToTriplet`, default options) on one attempt's spans. */
export function adaptAttempt(spans: Span[]): AdapterView {
  if (spans.length === 0) return { triplets: [], skipped: [], error: null };
  const adapter = new TracerTraceToTriplet();
  try {
    const tree = adapter.buildTree(spans);
    const triplets = adapter.toTrajectory(tree);
    // The same search the adapter ran: with default options every call found is one triplet, in order.
    const calls = findLlmCalls(tree, {
      llmCallMatch: adapter.llmCallMatch,
      agentMatch: adapter.agentMatch,
      excludeLlmCallInReward: adapter.excludeLlmCallInReward,
      dedupLlmCall: true,
    });
    const views = triplets.map((triplet, index): TripletView => {
      const spanId = calls[index]?.node.id ?? null;
      const promptIds = listLength((triplet.prompt as { token_ids?: unknown }).token_ids);
      const responseIds = listLength((triplet.response as { token_ids?: unknown }).token_ids);
      const agent = triplet.metadata.agent_name;
      return {
        index,
        span_id: spanId,
        triplet,
        agent: agent === null || agent === undefined ? null : String(agent),
        prompt_ids: promptIds,
        response_ids: responseIds,
        has_logprobs: (triplet.response as { logprobs?: unknown }).logprobs != null,
        left_out: leftOut(triplet, promptIds, responseIds),
      };
    });
    const kept = new Set(views.map((v) => v.span_id).filter((id): id is string => id !== null));
    return { triplets: views, skipped: skippedCalls(tree, kept), error: null };
  } catch (error) {
    return { triplets: [], skipped: [], error: (error as Error).message };
  }
}
