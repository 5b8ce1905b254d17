// Synthetic spans for the benchmark: an LLM-call-shaped span with OTLP-shaped hex ids (so the client's
// addManySpans can send them through OTLP), unique ids from a process-wide counter.

let nextId = 1;

const hex = (value, width) => value.toString(16).padStart(width, '0');

/** `count` spans of one rollout attempt with sequence ids `firstSequenceId`, `firstSequenceId + 1`, ... */
export function makeSpans(rolloutId, attemptId, count, firstSequenceId = 1) {
  const traceId = hex(nextId++, 32);
  const rootSpanId = hex(nextId, 16);
  const spans = [];
  for (let i = 0; i < count; i++) {
    const spanId = hex(nextId++, 16);
    const start = 1_700_000_000 + i;
    spans.push({
      rollout_id: rolloutId,
      attempt_id: attemptId,
      sequence_id: firstSequenceId + i,
      trace_id: traceId,
      span_id: spanId,
      parent_id: i === 0 ? null : rootSpanId,
      name: i === 0 ? 'agent.run' : 'openai.chat.completion',
      status: { status_code: 'OK', description: null },
      attributes: {
        'gen_ai.request.model': 'qwen2.5-1.5b',
        'gen_ai.prompt.0.role': 'user',
        'gen_ai.prompt.0.content': 'Which room fits 4 people with a projector at 10am?',
        'gen_ai.completion.0.content': 'Room B',
        'gen_ai.usage.prompt_tokens': 18,
        'gen_ai.usage.completion_tokens': 2,
      },
      events: [],
      links: [],
      start_time: start,
      end_time: start + 0.5,
      context: { trace_id: traceId, span_id: spanId, is_remote: false, trace_state: {} },
      parent: null,
      resource: { attributes: { 'service.name': 'arclight-bench' }, schema_url: '' },
    });
  }
  return spans;
}
