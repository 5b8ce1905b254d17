/**
 * Prints the cost of validating wire objects (run after `tsc -b`: `node bench/parse.ts`).
 * Not a test: it asserts nothing and only prints figures.
 */
import {
  type OtelSpanLike,
  parseAttemptedRollout,
  parseSpan,
  spanFromOtel,
} from '../dist/index.js';

const span = {
  rollout_id: 'ro-1a2b3c4d5e6f',
  attempt_id: 'at-9f8e7d6c',
  sequence_id: 3,
  trace_id: '0af7651916cd43dd8448eb211c80319c',
  span_id: 'b7ad6b7169203331',
  parent_id: 'a7ad6b7169203331',
  name: 'openai.chat.completion',
  status: { status_code: 'OK', description: null },
  attributes: {
    'gen_ai.request.model': 'gpt-4o',
    'gen_ai.prompt.0.role': 'user',
    'gen_ai.prompt.0.content': 'hello '.repeat(50),
    'gen_ai.usage.prompt_tokens': 120,
    prompt_token_ids: Array.from({ length: 200 }, (_, i) => i),
    'llm.is_streaming': false,
  },
  events: [{ name: 'token', attributes: { index: 1 }, timestamp: 1734000001.6 }],
  links: [],
  start_time: 1734000001.5,
  end_time: 1734000002.5,
  context: {
    trace_id: '0af7651916cd43dd8448eb211c80319c',
    span_id: 'b7ad6b7169203331',
    is_remote: false,
    trace_state: {},
  },
  parent: null,
  resource: {
    attributes: { 'service.name': 'agent', 'telemetry.sdk.language': 'nodejs' },
    schema_url: '',
  },
};

const rollout = {
  rollout_id: 'ro-1a2b3c4d5e6f',
  input: { question: 'q', answer: 4 },
  start_time: 1734000000.12,
  status: 'running',
  attempt: {
    rollout_id: 'ro-1a2b3c4d5e6f',
    attempt_id: 'at-9f8e7d6c',
    sequence_id: 1,
    start_time: 1734000000.12,
  },
};

const otel: OtelSpanLike = {
  name: 'openai.chat.completion',
  spanContext: () => ({ traceId: span.trace_id, spanId: span.span_id, isRemote: false }),
  startTime: [1734000001, 500_000_000],
  endTime: [1734000002, 500_000_000],
  status: { code: 1 },
  attributes: span.attributes,
  events: [{ name: 'token', time: [1734000001, 600_000_000], attributes: { index: 1 } }],
  links: [],
  resource: { attributes: span.resource.attributes },
};

function bench(name: string, fn: () => unknown): void {
  for (let i = 0; i < 20_000; i++) fn();
  const iterations = 200_000;
  const start = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  const micros = ((performance.now() - start) * 1000) / iterations;
  console.log(
    `${name.padEnd(28)} ${micros.toFixed(2)} µs/op  (${Math.round(1e6 / micros).toLocaleString()} ops/s)`,
  );
}

bench('parseSpan', () => parseSpan(span));
bench('parseAttemptedRollout', () => parseAttemptedRollout(rollout));
bench('spanFromOtel', () => spanFromOtel(otel, 'ro-1', 'at-1', 1));
bench('JSON.parse(JSON.stringify)', () => JSON.parse(JSON.stringify(span)));
