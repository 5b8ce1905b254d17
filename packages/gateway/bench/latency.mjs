// Gateway benchmark: added latency per call (p50/p99, plain and streaming time-to-first-token) over calling the
// fixture server directly, and calls/s at 1/8/64 concurrent clients — for Arclight's gateway (recording every
// call into an in-memory store) and, when the Python venv has it, upstream agentlightning 0.3.0's LLMProxy on
// the same backend and workload.
//
//   npm run bench -w packages/gateway                 (ARCLIGHT_BENCH_CALLS=200 by default per measurement)
//   ARCLIGHT_BENCH_UPSTREAM=0 npm run bench -w packages/gateway   (skip upstream)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InMemoryLightningStore } from '@arclight/store';
import { startFixtureLlm } from '@arclight/test-fixtures';
import { freePort, PYTHON, pythonEnv } from '@arclight/test-fixtures/python';
import { startGateway } from '../dist/index.js';

const CALLS = Number(process.env.ARCLIGHT_BENCH_CALLS ?? 200);
const LEVELS = [1, 8, 64];
const UPSTREAM = process.env.ARCLIGHT_BENCH_UPSTREAM !== '0';
const body = (stream) =>
  JSON.stringify({
    model: 'fixture-model',
    messages: [{ role: 'user', content: 'Which room has a projector and seats ten people?' }],
    max_tokens: 32,
    stream,
  });

/** Failed calls per URL (a target that fails under load is reported, not hidden). */
const failures = new Map();
const lastFailure = new Map();

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** One call; resolves with [ms to first body byte, ms to end]. */
async function once(url, stream) {
  const start = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body(stream),
  });
  const reader = res.body.getReader();
  let first;
  for (;;) {
    const { done, value } = await reader.read();
    if (first === undefined && value) first = performance.now() - start;
    if (done) break;
  }
  if (!res.ok) {
    failures.set(url, (failures.get(url) ?? 0) + 1);
    lastFailure.set(url, `HTTP ${res.status}`);
  }
  return [first ?? performance.now() - start, performance.now() - start];
}

async function latency(url, stream) {
  for (let i = 0; i < 20; i++) await once(url, stream); // warm-up
  const firsts = [];
  const totals = [];
  for (let i = 0; i < CALLS; i++) {
    const [first, total] = await once(url, stream);
    firsts.push(first);
    totals.push(total);
  }
  const f = firsts.sort((a, b) => a - b);
  const t = totals.sort((a, b) => a - b);
  return {
    p50: percentile(t, 50),
    p99: percentile(t, 99),
    ttft50: percentile(f, 50),
    ttft99: percentile(f, 99),
  };
}

async function throughput(url, concurrency) {
  const total = Math.max(CALLS, concurrency * 4);
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        await once(url, false);
      }
    }),
  );
  return total / ((performance.now() - start) / 1000);
}

async function measure(name, url) {
  const plain = await latency(url, false);
  const streamed = await latency(url, true);
  const rates = {};
  for (const level of LEVELS) rates[level] = await throughput(url, level);
  return {
    name,
    plain,
    streamed,
    rates,
    failures: failures.get(url) ?? 0,
    lastFailure: lastFailure.get(url),
  };
}

async function startUpstream(backend) {
  const script = fileURLToPath(new URL('upstream_llm_proxy.py', import.meta.url));
  if (!existsSync(PYTHON))
    return { skip: `no Python venv at ${PYTHON} (bash scripts/python-env.sh)` };
  const port = await freePort();
  const child = spawn(PYTHON, [script, String(port), backend], {
    // LiteLLM 1.10x refuses to start its proxy without a master key, and upstream's LLMProxy sets none.
    env: pythonEnv({ LITELLM_DANGEROUSLY_PERMIT_WEAK_OR_UNSET_MASTER_KEY: 'true' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const ready = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 600_000);
    const check = () => {
      if (output.includes('READY')) {
        clearTimeout(timer);
        resolve(true);
      }
    };
    child.stdout.on('data', check);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  if (!ready) {
    child.kill('SIGKILL');
    return { skip: `upstream LLMProxy did not start:\n${output.slice(-2000)}` };
  }
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

const fmt = (v) => v.toFixed(2).padStart(8);
const llm = await startFixtureLlm({ recordings: false });
const store = new InMemoryLightningStore();
const gateway = await startGateway({
  backends: [{ url: llm.baseUrl }],
  store,
  healthCheckIntervalMs: 0,
});
const rollout = await store.startRollout({ input: {} });
const results = [];
try {
  results.push(await measure('direct (fixture server)', `${llm.baseUrl}/chat/completions`));
  results.push(
    await measure(
      'arclight gateway',
      `${gateway.baseUrl(rollout.rollout_id, rollout.attempt.attempt_id)}/chat/completions`,
    ),
  );
  if (UPSTREAM) {
    const upstream = await startUpstream(llm.baseUrl);
    if (upstream.skip) console.log(`upstream LLMProxy skipped: ${upstream.skip}`);
    else {
      try {
        results.push(
          await measure(
            'upstream LLMProxy 0.3.0',
            `${upstream.url}/rollout/ro-bench/attempt/at-bench/v1/chat/completions`,
          ),
        );
      } finally {
        upstream.stop();
      }
    }
  }
} finally {
  await gateway.stop();
  await llm.close();
}

const [direct] = results;
console.log(
  `\n${CALLS} calls per latency measurement, chat completions of ~10 tokens, fixture backend on 127.0.0.1`,
);
console.log(
  'target                      p50 ms   p99 ms  +p50 ms  +p99 ms  TTFT50  TTFT99  +TTFT50   c=1/s   c=8/s  c=64/s',
);
for (const r of results) {
  console.log(
    `${r.name.padEnd(25)}${fmt(r.plain.p50)}${fmt(r.plain.p99)}${fmt(r.plain.p50 - direct.plain.p50)}${fmt(r.plain.p99 - direct.plain.p99)}` +
      `${fmt(r.streamed.ttft50)}${fmt(r.streamed.ttft99)}${fmt(r.streamed.ttft50 - direct.streamed.ttft50)}` +
      `${LEVELS.map((l) => r.rates[l].toFixed(0).padStart(8)).join('')}` +
      (r.failures > 0 ? `   (${r.failures} failed calls, last: ${r.lastFailure})` : ''),
  );
}
const ours = results.find((r) => r.name.startsWith('arclight'));
const theirs = results.find((r) => r.name.startsWith('upstream'));
if (ours && theirs) {
  const added = (r) => r.plain.p50 - direct.plain.p50;
  console.log(
    `\nratio upstream/arclight: added p50 latency ${(added(theirs) / added(ours)).toFixed(1)}x, ` +
      `TTFT p50 ${(theirs.streamed.ttft50 / ours.streamed.ttft50).toFixed(1)}x, ` +
      LEVELS.map((l) => `calls/s c=${l} ${(ours.rates[l] / theirs.rates[l]).toFixed(1)}x`).join(
        ', ',
      ),
  );
}
