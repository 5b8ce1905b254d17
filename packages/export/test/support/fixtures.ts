import { TracerTraceToTriplet } from '@arclight/adapter';
import {
  type AttemptStatus,
  type Attributes,
  createSpan,
  defaultRolloutConfig,
  type Rollout,
  type RolloutStatus,
  type Span,
} from '@arclight/core';
import type { ExportRecord } from '../../src/index.js';

/**
 * Synthetic agent traces in the span layout `@arclight/instrumentation-openai` writes (AgentOps' `gen_ai.*` attributes plus
 * vLLM's `prompt_token_ids` / `response_token_ids` and `logprobs.content`), turned into records by the real
 * adapter. A toy chat template makes token ids prefix-preserving, as engine ids are for a linear agent:
 * render(message) = [ROLE, ...text, END]; prompt = render(messages) + [ASSISTANT]; reply = text + [END].
 */

const ROLE: Record<string, number> = { system: 1, user: 2, assistant: 3, tool: 4 };
export const END = 9;

export interface FixtureToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface FixtureMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: FixtureToolCall[];
  tool_call_id?: string;
}

export interface FixtureCall {
  agent?: string;
  prompt: FixtureMessage[];
  reply: FixtureMessage;
  /** Omit the token id attributes (a server without `return_token_ids`). */
  noTokenIds?: boolean;
  /** Omit `logprobs.content`. */
  noLogprobs?: boolean;
  tools?: Array<{ name: string; description: string; parameters: Record<string, unknown> }>;
}

const encode = (text: string): number[] => [...text].map((ch) => 100 + (ch.codePointAt(0)! % 900));

function messageText(message: FixtureMessage): string {
  const calls = (message.tool_calls ?? [])
    .map((c) => `<tool_call>${c.name}${JSON.stringify(c.arguments)}</tool_call>`)
    .join('');
  return `${message.content ?? ''}${calls}`;
}

export const renderPrompt = (messages: FixtureMessage[]): number[] => [
  ...messages.flatMap((m) => [ROLE[m.role]!, ...encode(messageText(m)), END]),
  ROLE.assistant!,
];

export const replyIds = (reply: FixtureMessage): number[] => [...encode(messageText(reply)), END];

/** Attributes of one `openai.chat.completion` span. */
function llmAttributes(call: FixtureCall, responseId: string): Attributes {
  const attributes: Attributes = {
    'gen_ai.system': 'OpenAI',
    'gen_ai.request.model': 'fixture-model',
    'gen_ai.response.id': responseId,
    'gen_ai.response.model': 'fixture-model',
  };
  call.prompt.forEach((m, i) => {
    attributes[`gen_ai.prompt.${i}.role`] = m.role;
    if (m.content !== null) attributes[`gen_ai.prompt.${i}.content`] = m.content;
    if (m.tool_call_id) attributes[`gen_ai.prompt.${i}.tool_call_id`] = m.tool_call_id;
    m.tool_calls?.forEach((c, j) => {
      attributes[`gen_ai.prompt.${i}.tool_calls.${j}.id`] = c.id;
      attributes[`gen_ai.prompt.${i}.tool_calls.${j}.name`] = c.name;
      attributes[`gen_ai.prompt.${i}.tool_calls.${j}.arguments`] = JSON.stringify(c.arguments);
    });
  });
  attributes['gen_ai.completion.0.role'] = 'assistant';
  if (call.reply.content !== null) attributes['gen_ai.completion.0.content'] = call.reply.content;
  attributes['gen_ai.completion.0.finish_reason'] = call.reply.tool_calls ? 'tool_calls' : 'stop';
  call.reply.tool_calls?.forEach((c, j) => {
    attributes[`gen_ai.completion.0.tool_calls.${j}.id`] = c.id;
    attributes[`gen_ai.completion.0.tool_calls.${j}.name`] = c.name;
    attributes[`gen_ai.completion.0.tool_calls.${j}.arguments`] = JSON.stringify(c.arguments);
  });
  call.tools?.forEach((t, j) => {
    attributes[`gen_ai.request.functions.${j}.name`] = t.name;
    attributes[`gen_ai.request.functions.${j}.description`] = t.description;
    attributes[`gen_ai.request.functions.${j}.parameters`] = JSON.stringify(t.parameters);
  });
  if (!call.noTokenIds) {
    const reply = replyIds(call.reply);
    attributes.prompt_token_ids = renderPrompt(call.prompt);
    attributes.response_token_ids = reply;
    if (!call.noLogprobs) {
      const entries = reply.map((id, k) => ({
        token: `t${id}`,
        logprob: -0.01 * (k + 1),
        bytes: [116],
        top_logprobs: [],
      }));
      attributes['logprobs.content'] = JSON.stringify(entries);
    }
  }
  return attributes;
}

export interface FixtureRollout {
  rollout_id: string;
  attempt_id?: string;
  input: unknown;
  calls: FixtureCall[];
  /** Emitted as a reward span after the last call; omitted → no reward. */
  reward?: number;
  mode?: 'train' | 'val' | null;
  status?: RolloutStatus;
  start_time?: number;
  metadata?: Record<string, unknown> | null;
}

/** The spans of one attempt: a root span, per call an agent span holding its LLM span, a reward span at the end. */
export function spansOf(fixture: FixtureRollout): Span[] {
  const rollout_id = fixture.rollout_id;
  const attempt_id = fixture.attempt_id ?? `at-${rollout_id}`;
  const t0 = fixture.start_time ?? 1_750_000_000;
  const trace_id = '0af7651916cd43dd8448eb211c80319c';
  const root = createSpan({
    name: 'agent.run',
    rollout_id,
    attempt_id,
    sequence_id: 1,
    trace_id,
    span_id: 'a000000000000001',
    start_time: t0,
    end_time: t0 + 100,
    attributes: { 'agent.name': fixture.calls[0]?.agent ?? 'agent' },
  });
  const spans = [root];
  fixture.calls.forEach((call, i) => {
    const agent = createSpan({
      name: 'agent.step',
      rollout_id,
      attempt_id,
      sequence_id: spans.length + 1,
      trace_id,
      span_id: `d00000000000000${i}`,
      parent_id: root.span_id,
      start_time: t0 + i * 10,
      end_time: t0 + 6 + i * 10,
      attributes: { 'agent.name': call.agent ?? 'agent' },
    });
    spans.push(
      agent,
      createSpan({
        name: 'openai.chat.completion',
        rollout_id,
        attempt_id,
        sequence_id: spans.length + 2,
        trace_id,
        span_id: `b00000000000000${i}`,
        parent_id: agent.span_id,
        start_time: t0 + 1 + i * 10,
        end_time: t0 + 5 + i * 10,
        attributes: llmAttributes(call, `chatcmpl-${rollout_id}-${i}`),
      }),
    );
  });
  if (fixture.reward !== undefined) {
    spans.push(
      createSpan({
        name: 'agentlightning.annotation',
        rollout_id,
        attempt_id,
        sequence_id: spans.length + 1,
        trace_id,
        span_id: 'c000000000000001',
        parent_id: root.span_id,
        start_time: t0 + 90,
        end_time: t0 + 90,
        attributes: {
          'agentlightning.reward.0.name': 'reward',
          'agentlightning.reward.0.value': fixture.reward,
        },
      }),
    );
  }
  return spans;
}

/** The rollout record of a fixture (its calls are not needed). */
export function rolloutOf(fixture: Omit<FixtureRollout, 'calls'>): Rollout {
  return {
    rollout_id: fixture.rollout_id,
    input: fixture.input,
    start_time: fixture.start_time ?? 1_750_000_000,
    end_time: (fixture.start_time ?? 1_750_000_000) + 100,
    mode: fixture.mode === undefined ? 'train' : fixture.mode,
    resources_id: null,
    status: fixture.status ?? 'succeeded',
    config: defaultRolloutConfig(),
    metadata: fixture.metadata ?? null,
  };
}

/** The record the store reader would build: the adapter's triplets for the fixture's spans. */
export function recordOf(fixture: FixtureRollout): ExportRecord {
  return {
    rollout: rolloutOf(fixture),
    attempt_id: fixture.attempt_id ?? `at-${fixture.rollout_id}`,
    triplets: new TracerTraceToTriplet().adapt(spansOf(fixture)),
  };
}

export const attemptStatusOf = (status: RolloutStatus): AttemptStatus =>
  status === 'succeeded' || status === 'failed' ? status : 'running';
