// Memory-cap benchmark: streams spans into an in-memory server capped with `maxSpanBytes` — rollout by rollout,
// each rollout's spans over OTLP/protobuf, then the rollout marked succeeded — and samples the server process's
// RSS from /proc. With the cap, finished rollouts' spans are evicted oldest first and RSS stays flat; without
// one (`--cap 0`) it grows with every span. Prints figures; asserts nothing. Usage (after `npm run build`):
//   node bench/memory-cap-bench.mjs [--spans 5000000] [--per-rollout 1000] [--cap 268435456] [--samples 20]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    spans: { type: 'string', default: '5000000' },
    'per-rollout': { type: 'string', default: '1000' },
    cap: { type: 'string', default: String(256 * 1024 * 1024) },
    samples: { type: 'string', default: '20' },
  },
});
const totalSpans = Number(values.spans);
const perRollout = Number(values['per-rollout']);
const cap = Number(values.cap);
const rollouts = Math.ceil(totalSpans / perRollout);
const sampleEvery = Math.max(1, Math.floor(rollouts / Number(values.samples)));

// ---- protobuf encoding of one OTLP request (field numbers of opentelemetry-proto trace/v1) ----
const varint = (value) => {
  const bytes = [];
  let v = value;
  while (v >= 0x80) {
    bytes.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  bytes.push(v);
  return Buffer.from(bytes);
};
const len = (field, payload) =>
  Buffer.concat([varint(field * 8 + 2), varint(payload.length), payload]);
const text = (field, value) => len(field, Buffer.from(value));
const kv = (key, value) => Buffer.concat([text(1, key), len(2, text(1, value))]);
const fixed64 = (field, nanos) => {
  const b = Buffer.alloc(9);
  b[0] = field * 8 + 1;
  b.writeBigUInt64LE(nanos, 1);
  return b;
};

function otlpRequest(rolloutId, attemptId, count) {
  const traceId = Buffer.alloc(16);
  traceId.write(rolloutId.slice(-16).padStart(16, '0'), 'latin1');
  const now = BigInt(Date.now()) * 1_000_000n;
  const spans = [];
  for (let i = 0; i < count; i++) {
    const spanId = Buffer.alloc(8);
    spanId.writeUInt32BE(i + 1, 4);
    spans.push(
      len(
        2,
        Buffer.concat([
          len(1, traceId),
          len(2, spanId),
          text(5, 'openai.chat.completion'),
          fixed64(7, now),
          fixed64(8, now + 1_000_000n),
          len(9, kv('gen_ai.prompt.0.content', `What is ${i} + ${i}? Answer with a number only.`)),
          len(9, kv('gen_ai.completion.0.content', String(2 * i))),
          len(9, kv('gen_ai.request.model', 'fixture-model')),
        ]),
      ),
    );
  }
  const resource = len(
    1,
    Buffer.concat(
      [kv('agentlightning.rollout_id', rolloutId), kv('agentlightning.attempt_id', attemptId)].map(
        (a) => len(1, a),
      ),
    ),
  );
  return len(1, Buffer.concat([resource, len(2, Buffer.concat(spans))]));
}

// ---- the server ----
const child = spawn(
  process.execPath,
  [
    fileURLToPath(new URL('./server-child.mjs', import.meta.url)),
    cap > 0 ? 'memory-capped' : 'memory',
    String(cap),
  ],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);
process.on('exit', () => child.kill('SIGKILL'));
const url = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    out += chunk;
    const match = /READY (\S+)/.exec(out);
    if (match) resolve(match[1]);
  });
  child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
});

const rssMiB = () => {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)[1]) / 1024;
};
const post = async (path, body, type = 'application/json') => {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': type },
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res;
};

console.log(
  `memory-cap benchmark: ${totalSpans} spans in ${rollouts} rollouts of ${perRollout}, cap ${cap > 0 ? `${(cap / 2 ** 20).toFixed(0)} MiB of span data` : 'none'}`,
);
console.log('spans sent | spans held | evicted | RSS MiB | elapsed s');
const started = Date.now();
const rows = [];
let peak = 0;
for (let r = 0; r < rollouts; r++) {
  const rollout = await (await post('/v1/agl/rollouts', JSON.stringify({ input: { r } }))).json();
  const count = Math.min(perRollout, totalSpans - r * perRollout);
  await post(
    '/v1/traces',
    otlpRequest(rollout.rollout_id, rollout.attempt.attempt_id, count),
    'application/x-protobuf',
  );
  await post(`/v1/agl/rollouts/${rollout.rollout_id}`, JSON.stringify({ status: 'succeeded' }));
  const rss = rssMiB();
  peak = Math.max(peak, rss);
  if ((r + 1) % sampleEvery === 0 || r === rollouts - 1) {
    const stats = await (await fetch(`${url}/v1/agl/statistics`)).json();
    const row = [
      (r + 1) * perRollout,
      stats.total_spans,
      stats.evicted_spans ?? 0,
      rss.toFixed(0),
      ((Date.now() - started) / 1000).toFixed(0),
    ];
    rows.push(row);
    console.log(row.join(' | '));
  }
}
const late = rows.slice(Math.floor(rows.length / 2)).map((row) => Number(row[3]));
console.log(
  `peak RSS ${peak.toFixed(0)} MiB; second half of the run: RSS ${Math.min(...late)}–${Math.max(...late)} MiB; ` +
    `${(totalSpans / ((Date.now() - started) / 1000)).toFixed(0)} spans/s`,
);
child.stdin.end();
