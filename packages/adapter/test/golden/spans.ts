/** Helpers that hand-build stored spans (the LightningStore wire format) for the golden traces. */

export type Attrs = Record<string, unknown>;

export interface SpanSpec {
  id: string;
  name: string;
  parent?: string | null;
  /** Seconds after {@link T0}; `null` = no time. */
  start: number | null;
  end: number | null;
  attrs?: Attrs;
  status?: 'OK' | 'ERROR' | 'UNSET';
  rollout?: string;
  attempt?: string;
  trace?: string;
}

export const T0 = 1750000000;
const TRACE = '0af7651916cd43dd8448eb211c80319c';

/** Stored spans; sequence ids follow the list order (as `querySpans` returns them). */
export function spans(specs: readonly SpanSpec[]): Attrs[] {
  return specs.map((s, i) => {
    const trace = s.trace ?? TRACE;
    const parent = s.parent ?? null;
    return {
      rollout_id: s.rollout ?? 'ro-golden',
      attempt_id: s.attempt ?? 'at-golden-1',
      sequence_id: i + 1,
      trace_id: trace,
      span_id: s.id,
      parent_id: parent,
      name: s.name,
      status: { status_code: s.status ?? 'OK', description: null },
      attributes: s.attrs ?? {},
      events: [],
      links: [],
      start_time: s.start === null ? null : T0 + s.start,
      end_time: s.end === null ? null : T0 + s.end,
      context: { trace_id: trace, span_id: s.id, is_remote: false, trace_state: {} },
      parent: parent
        ? { trace_id: trace, span_id: parent, is_remote: false, trace_state: {} }
        : null,
      resource: { attributes: { 'service.name': 'golden' }, schema_url: '' },
    };
  });
}

export interface ChatSpec {
  /** `gen_ai.response.id`; omitted = none. */
  id?: string;
  prompt?: [role: string, content: string][];
  completion?: string | null;
  promptIds?: number[];
  responseIds?: number[];
  model?: string;
  extra?: Attrs;
}

/** Attributes of an `openai.chat.completion` span in AgentOps' (and `@arclight/instrumentation-openai`'s) layout. */
export function chat(spec: ChatSpec): Attrs {
  const model = spec.model ?? 'golden-model';
  const attrs: Attrs = {
    'gen_ai.request.type': 'chat',
    'gen_ai.system': 'OpenAI',
    'gen_ai.request.model': model,
    'gen_ai.request.streaming': false,
  };
  (spec.prompt ?? [['user', 'Hi']]).forEach(([role, content], i) => {
    attrs[`gen_ai.prompt.${i}.role`] = role;
    attrs[`gen_ai.prompt.${i}.content`] = content;
  });
  if (spec.id !== undefined) {
    attrs['gen_ai.response.id'] = spec.id;
    attrs['gen_ai.response.model'] = `${model}-2025`;
  }
  if (spec.completion !== null) {
    attrs['gen_ai.completion.0.finish_reason'] = 'stop';
    attrs['gen_ai.completion.0.role'] = 'assistant';
    attrs['gen_ai.completion.0.content'] = spec.completion ?? 'Hello!';
  }
  if (spec.promptIds) attrs.prompt_token_ids = spec.promptIds;
  if (spec.responseIds) attrs.response_token_ids = spec.responseIds;
  return { ...attrs, ...spec.extra };
}

/** `emit_reward` (v0.3): `agentlightning.reward.{i}.name|value`, primary first. */
export function reward(value: unknown, ...more: [name: string, value: unknown][]): Attrs {
  const attrs: Attrs = {
    'agentlightning.reward.0.name': 'primary',
    'agentlightning.reward.0.value': value,
  };
  more.forEach(([name, v], i) => {
    attrs[`agentlightning.reward.${i + 1}.name`] = name;
    attrs[`agentlightning.reward.${i + 1}.value`] = v;
  });
  return attrs;
}

/** AgentOps' `@reward`-style output: `agentops.task.output = {"type": "reward", "value": …}`. */
export const agentopsReward = (value: unknown, key = 'agentops.task.output'): Attrs => ({
  [key]: JSON.stringify({ type: 'reward', value }),
});

export const ANNOTATION = 'agentlightning.annotation';
export const CHAT = 'openai.chat.completion';
