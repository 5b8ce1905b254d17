// Per-call overhead of @arclight/instrumentation-openai: the real SDK against an in-process transport (a custom `fetch`
// returning canned responses, no network), bare vs instrumented, plain and streaming chat completions.
// Spans go through the OTel SDK's SimpleSpanProcessor to an exporter that drops them.
// Usage: npm run bench [-- --calls 4000 --rounds 5]
import { parseArgs } from 'node:util';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import OpenAI7 from 'openai';
import OpenAI6 from 'openai6';
import { instrumentOpenAI } from '../dist/index.js';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '3000' }, rounds: { type: 'string', default: '4' } },
});
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);

const ids = (n, seed) => Array.from({ length: n }, (_, i) => (i * 7919 + seed) % 150000);
const completion = {
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1,
  model: 'bench-model',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'A canned answer of moderate length. '.repeat(4) },
      finish_reason: 'stop',
      token_ids: ids(48, 3),
    },
  ],
  usage: { prompt_tokens: 256, completion_tokens: 48, total_tokens: 304 },
  prompt_token_ids: ids(256, 1),
};
const plainBody = JSON.stringify(completion);
const sseBody = (() => {
  const base = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'bench-model',
  };
  const events = [
    {
      ...base,
      prompt_token_ids: ids(256, 1),
      choices: [
        { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, token_ids: [] },
      ],
    },
  ];
  for (let i = 0; i < 24; i += 1) {
    events.push({
      ...base,
      choices: [
        {
          index: 0,
          delta: { content: `tok${i} ` },
          finish_reason: i === 23 ? 'stop' : null,
          token_ids: ids(2, i),
        },
      ],
    });
  }
  events.push({ ...base, choices: [], usage: completion.usage });
  return `${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`;
})();

const cannedFetch = async (_url, init) => {
  const stream = JSON.parse(String(init?.body ?? '{}')).stream === true;
  return stream
    ? new Response(sseBody, { headers: { 'content-type': 'text/event-stream' } })
    : new Response(plainBody, { headers: { 'content-type': 'application/json' } });
};

const messages = [
  { role: 'system', content: 'You are a benchmark.' },
  { role: 'user', content: 'How fast is the instrumentation? '.repeat(8) },
];

async function callPlain(client) {
  await client.chat.completions.create({ model: 'bench-model', messages, temperature: 0 });
}

async function callStream(client) {
  const stream = await client.chat.completions.create({
    model: 'bench-model',
    messages,
    stream: true,
  });
  for await (const _ of stream) {
    // drain
  }
}

async function sample(fn, client, n) {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    const t0 = performance.now();
    await fn(client);
    out[i] = (performance.now() - t0) * 1000;
  }
  return out;
}

const percentile = (values, p) => {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

const dropExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
const provider = new TracerProvider({
  spanProcessors: [new SimpleSpanProcessor({ exporter: dropExporter })],
});

const rows = [];
for (const [sdkName, OpenAI] of [
  ['openai@7', OpenAI7],
  ['openai@6', OpenAI6],
]) {
  const client = new OpenAI({
    apiKey: 'x',
    baseURL: 'http://bench.invalid/v1',
    fetch: cannedFetch,
    maxRetries: 0,
  });
  for (const [scenario, fn] of [
    ['chat plain', callPlain],
    ['chat stream (26 chunks)', callStream],
  ]) {
    await sample(fn, client, 300); // warm-up
    const bare = [];
    const instrumented = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      bare.push(...(await sample(fn, client, CALLS)));
      const uninstrument = instrumentOpenAI(OpenAI, { tracerProvider: provider });
      instrumented.push(...(await sample(fn, client, CALLS)));
      uninstrument();
    }
    const b50 = percentile(bare, 50);
    const i50 = percentile(instrumented, 50);
    rows.push({
      sdk: sdkName,
      scenario,
      'bare p50 µs': b50.toFixed(1),
      'bare p99 µs': percentile(bare, 99).toFixed(1),
      'instrumented p50 µs': i50.toFixed(1),
      'instrumented p99 µs': percentile(instrumented, 99).toFixed(1),
      'overhead p50 µs': (i50 - b50).toFixed(1),
    });
  }
}

console.log(
  `@arclight/instrumentation-openai overhead — ${CALLS * ROUNDS} calls per cell, node ${process.version}`,
);
console.table(rows);
