import type { Span } from '@arclight/core';

export interface MiniSpan {
  id: string;
  name?: string;
  parent?: string | null;
  start?: number | null;
  end?: number | null;
  attrs?: Span['attributes'];
}

/** Stored spans from short specs (sequence ids in list order). */
export function makeSpans(specs: readonly MiniSpan[]): Span[] {
  return specs.map((s, i) => ({
    rollout_id: 'ro-test',
    attempt_id: 'at-test',
    sequence_id: i + 1,
    trace_id: '0af7651916cd43dd8448eb211c80319c',
    span_id: s.id,
    parent_id: s.parent ?? null,
    name: s.name ?? 'span',
    status: { status_code: 'OK', description: null },
    attributes: s.attrs ?? {},
    events: [],
    links: [],
    start_time: s.start === undefined ? i : s.start,
    end_time: s.end === undefined ? i + 0.5 : s.end,
    context: null,
    parent: null,
    resource: { attributes: {}, schema_url: '' },
  }));
}

export const llm = (id: string, extra: Span['attributes'] = {}): Span['attributes'] => ({
  'gen_ai.prompt.0.role': 'user',
  'gen_ai.prompt.0.content': `prompt ${id}`,
  'gen_ai.response.id': id,
  'gen_ai.completion.0.role': 'assistant',
  'gen_ai.completion.0.content': `answer ${id}`,
  prompt_token_ids: [1, 2],
  response_token_ids: [3],
  ...extra,
});

export const rewardAttrs = (value: number): Span['attributes'] => ({
  'agentlightning.reward.0.name': 'primary',
  'agentlightning.reward.0.value': value,
});
