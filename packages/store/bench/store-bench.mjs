// LightningStore benchmark: in-process rollout lifecycle, span inserts and reading every rollout page by page,
// memory vs SQLite.
// Prints figures; asserts nothing. Usage: node bench/store-bench.mjs [--sizes 10000,100000] [--backends memory,sqlite]
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { InMemoryLightningStore, SqliteLightningStore } from '../dist/index.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    backends: { type: 'string', default: 'memory,sqlite' },
    spans: { type: 'string', default: '10' },
    synchronous: { type: 'string', default: 'normal' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const backends = values.backends.split(',');
const spansPerRollout = Number(values.spans);

function makeSpan(rolloutId, attemptId, seq, i) {
  const traceId = rolloutId.slice(3).padEnd(32, '0');
  const spanId = (i + 1).toString(16).padStart(16, '0');
  return {
    rollout_id: rolloutId,
    attempt_id: attemptId,
    sequence_id: seq,
    trace_id: traceId,
    span_id: spanId,
    parent_id: i === 0 ? null : '0000000000000001',
    name: i === 0 ? 'agent.run' : 'openai.chat.completion',
    status: { status_code: 'OK', description: null },
    attributes: {
      'gen_ai.request.model': 'qwen2.5-1.5b',
      'gen_ai.prompt.0.role': 'user',
      'gen_ai.prompt.0.content': 'Which room fits 4 people with a projector at 10am?',
      'gen_ai.completion.0.content': 'Room B',
      prompt_token_ids: [1, 2, 3, 4, 5, 6, 7, 8],
      response_token_ids: [9, 10, 11],
    },
    events: [],
    links: [],
    start_time: 1_700_000_000 + i,
    end_time: 1_700_000_000 + i + 0.5,
    context: { trace_id: traceId, span_id: spanId, is_remote: false, trace_state: {} },
    parent: null,
    resource: { attributes: { 'service.name': 'bench' }, schema_url: '' },
  };
}

function open(backend) {
  if (backend === 'memory') return { store: new InMemoryLightningStore(), cleanup: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'arclight-bench-'));
  const store = new SqliteLightningStore({
    path: join(dir, 'store.sqlite'),
    synchronous: values.synchronous,
  });
  return { store, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);
const rate = (n, ms) => Math.round((n / ms) * 1000).toLocaleString('en-US');

async function lifecycle(backend, n) {
  const { store, cleanup } = open(backend);
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    await store.enqueueRollout({ input: { task: i } });
    const rollout = await store.dequeueRollout({ worker_id: 'bench-worker' });
    const spans = [];
    for (let s = 0; s < spansPerRollout; s++) {
      spans.push(makeSpan(rollout.rollout_id, rollout.attempt.attempt_id, s + 1, s));
    }
    await store.addManySpans(spans);
    await store.updateAttempt(rollout.rollout_id, rollout.attempt.attempt_id, {
      status: 'succeeded',
    });
  }
  const lifecycleMs = performance.now() - t0;
  const rss = process.memoryUsage().rss;

  // Span inserts: one rollout, batches of 100 spans, then single-span writes.
  const target = await store.startRollout({ input: 'span-bench' });
  const spanCount = Math.min(n * 10, 200_000);
  let seq = 1;
  const t1 = performance.now();
  for (let done = 0; done < spanCount; done += 100) {
    const batch = [];
    for (let s = 0; s < 100; s++, seq++)
      batch.push(makeSpan(target.rollout_id, target.attempt.attempt_id, seq, seq));
    await store.addManySpans(batch);
  }
  const batchMs = performance.now() - t1;
  const singles = Math.min(n, 20_000);
  const t2 = performance.now();
  for (let s = 0; s < singles; s++, seq++)
    await store.addSpan(makeSpan(target.rollout_id, target.attempt.attempt_id, seq, seq));
  const singleMs = performance.now() - t2;
  const pages = await readPages(store);
  const stats = await store.statistics();
  await store.close();
  cleanup();
  return {
    backend,
    rollouts: n,
    'lifecycles/s': rate(n, lifecycleMs),
    'spans/s (batch 100)': rate(spanCount, batchMs),
    'spans/s (single)': rate(singles, singleMs),
    ...pages,
    'total spans': stats.total_spans.toLocaleString('en-US'),
    'RSS MB': mb(rss),
    'RSS growth MB': mb(rss - rssBefore),
  };
}

/**
 * Every rollout read 100 at a time by start time, oldest and newest first, and newest first among two statuses (the
 * dashboard's filter): seconds for all pages (an export, the dashboard's last pages, a client paging through); and
 * one page 90 % deep read on its own.
 */
async function readPages(store) {
  const seconds = async (query) => {
    const t = performance.now();
    for (let offset = 0; ; offset += 100) {
      const page = await store.queryRollouts({
        ...query,
        sort_by: 'start_time',
        limit: 100,
        offset,
      });
      if (page.items.length < 100) break;
    }
    return ((performance.now() - t) / 1000).toFixed(2);
  };
  // One page 90 % deep, newest first, read on its own (as after a write, or a jump to a far page): best of 3.
  const { total } = await store.queryRollouts({ limit: 1 });
  let deep = Infinity;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await store.queryRollouts({
      sort_by: 'start_time',
      sort_order: 'desc',
      limit: 100,
      offset: Math.floor(total * 0.9) + i,
    });
    deep = Math.min(deep, performance.now() - t);
  }
  return {
    'pages oldest first s': await seconds({ sort_order: 'asc' }),
    'pages newest first s': await seconds({ sort_order: 'desc' }),
    'pages 2 statuses newest first s': await seconds({
      sort_order: 'desc',
      status_in: ['succeeded', 'failed'],
    }),
    'page 90 % deep newest first ms': deep.toFixed(1),
  };
}

console.log(
  `Arclight store benchmark — node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, ${mb(totalmem())} MB RAM`,
);
console.log(
  `lifecycle = enqueue → dequeue → ${spansPerRollout} spans (one addManySpans) → updateAttempt(succeeded); SQLite synchronous=${values.synchronous}`,
);
const rows = [];
for (const backend of backends) {
  for (const n of sizes) {
    rows.push(await lifecycle(backend, n));
    console.log(JSON.stringify(rows.at(-1)));
  }
}
console.table(rows);
