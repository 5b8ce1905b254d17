import { ValidationError } from '@arclight/core';
import { searches } from '../pattern.js';
import { responseIdOf } from './span-attributes.js';
import type { TraceTree } from './trace-tree.js';

/** Marker upstream uses as the agent of LLM calls when no `agent_match` is set and no agent span encloses them. */
export const ANY_AGENT = '*';

export interface FindLlmCallsOptions {
  llmCallMatch: RegExp;
  agentMatch: RegExp | null;
  /** Skip LLM calls inside reward spans (upstream `exclude_llm_call_in_reward`). */
  excludeLlmCallInReward: boolean;
  /** Skip nested LLM spans without a response id under an LLM call, and repeated response ids. */
  dedupLlmCall: boolean;
}

/** One LLM call and the agent name it was found under (`"*"` when none). */
export interface LlmCall {
  node: TraceTree;
  agentName: unknown;
}

/** `undefined` = outside any matching agent subtree (upstream's `None`). */
type Within = unknown;

/**
 * Upstream `TraceTree.find_llm_calls`, depth first. A node is an LLM call when its name matches
 * `llmCallMatch`, it lies in a matching agent subtree (with no `agentMatch`, everywhere), it is not under a
 * reward span (when excluded), and — with dedup — it is not a span without response id nested under an
 * accepted call, and its response id (`gen_ai.response.id`, else `agentlightning.operation.output.id`) was
 * not seen before anywhere in the trace. A node's own agent name and reward-ness apply to its descendants
 * only.
 */
export function findLlmCalls(root: TraceTree, options: FindLlmCallsOptions): LlmCall[] {
  const calls: LlmCall[] = [];
  const seenResponseIds = new Set<string>();
  const visit = (
    node: TraceTree,
    within: Within,
    withinReward: boolean | null,
    withinLlmCall: boolean | null,
  ): void => {
    let isLlmCall = within !== undefined && withinReward !== true;
    if (!searches(options.llmCallMatch, node.span.name)) isLlmCall = false;
    if (isLlmCall) {
      const responseId = responseIdOf(node.span.attributes);
      if (responseId === null && withinLlmCall === true) isLlmCall = false;
      if (responseId !== null && seenResponseIds.has(responseId)) isLlmCall = false;
      if (isLlmCall) {
        calls.push({ node, agentName: within });
        if (responseId !== null) seenResponseIds.add(responseId);
        if (withinLlmCall !== null) withinLlmCall = true;
      }
    }
    const agentName = node.agentName();
    if (agentName !== undefined) {
      within =
        options.agentMatch === null || matchesAgent(options.agentMatch, agentName, node)
          ? agentName
          : undefined;
    }
    if (withinReward !== null && node.isRewardSpan()) withinReward = true;
    for (const child of node.children) visit(child, within, withinReward, withinLlmCall);
  };
  visit(
    root,
    options.agentMatch === null ? ANY_AGENT : undefined,
    options.excludeLlmCallInReward ? false : null,
    options.dedupLlmCall ? false : null,
  );
  return calls;
}

function matchesAgent(pattern: RegExp, agentName: unknown, node: TraceTree): boolean {
  if (typeof agentName !== 'string') {
    // Upstream's re.search raises TypeError on a non-string agent name.
    throw new ValidationError(
      `span '${node.id}': agent name ${JSON.stringify(agentName)} is not a string`,
    );
  }
  return searches(pattern, agentName);
}
