// Where a request's time goes: runs one benchmark cell against a server child started with `node --cpu-prof`,
// then attributes the server's CPU samples (self time) to the stages of a request and prints the top functions.
// Prints figures; asserts nothing. Usage (after `npm run build`):
//   node bench/profile-server.mjs [--backend memory|sqlite] [--cell otlp:8|rest:8|ingest] [--lifecycles 2000]
//     [--seconds 10] [--top 25] [--keep] [--callers <function name>]
//     [--json] (one JSON line: rate, server µs per request, server stage shares)
//     [--base]  (profile the baseline checkout's server instead: ARCLIGHT_BENCH_BASE=<its root>)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runLifecycles, runOtlpIngest } from './workloads.mjs';

const { values } = parseArgs({
  options: {
    backend: { type: 'string', default: 'memory' },
    cell: { type: 'string', default: 'otlp:8' },
    lifecycles: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '10' },
    top: { type: 'string', default: '25' },
    keep: { type: 'boolean', default: false },
    callers: { type: 'string' },
    base: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

const here = values.base
  ? join(process.env.ARCLIGHT_BENCH_BASE ?? '', 'packages/server/bench')
  : dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'arclight-profile-'));
const args = ['--cpu-prof', '--cpu-prof-dir', dir, join(here, 'server-child.mjs'), values.backend];
if (values.backend === 'sqlite') args.push(join(dir, 'store.sqlite'));
const child = spawn(process.execPath, args, {
  cwd: dirname(here),
  stdio: ['pipe', 'pipe', 'inherit'],
});
const exited = new Promise((done) => child.once('exit', done));
const cpuReadings = [];
let onCpu;
const url = await new Promise((resolve, reject) => {
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
    const match = /^READY (\S+)$/m.exec(output);
    if (match) resolve(match[1]);
    for (const [line, micros] of output.matchAll(/^CPU (\d+)\n/gm)) {
      cpuReadings.push(Number(micros));
      output = output.replace(line, '');
      onCpu?.();
    }
  });
  child.once('exit', () => reject(new Error(`server exited early: ${output}`)));
});
/** The server's CPU time at the start and end of the measured part (SIGUSR2 → `CPU <µs>`). */
const onWindow = (edge) =>
  new Promise((resolve) => {
    const expected = edge === 'start' ? 1 : 2;
    onCpu = () => cpuReadings.length >= expected && resolve();
    child.kill('SIGUSR2');
  });

// The client (this process) is profiled too: it shares the machine's cores with the server.
const inspector = new Session();
inspector.connect();
await inspector.post('Profiler.enable');
await inspector.post('Profiler.start');

const seconds = Number(values.seconds);
const [kind, level] = values.cell.split(':');
const result =
  kind === 'ingest'
    ? await runOtlpIngest(url, { senders: 8, requests: 500, batch: 100, seconds, onWindow })
    : await runLifecycles(url, {
        concurrency: Number(level),
        lifecycles: Number(values.lifecycles),
        seconds,
        spanPath: kind,
        onWindow,
      });
const { profile: clientProfile } = await inspector.post('Profiler.stop');
inspector.disconnect();
child.kill('SIGTERM');
await exited;

const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error(`no .cpuprofile written in ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
if (!values.keep) rmSync(dir, { recursive: true, force: true });

/** Stage of a profile node, from its function and script (first match wins). */
const STAGES = [
  ['(idle)', (f) => f.functionName === '(idle)'],
  ['GC', (f) => f.functionName === '(garbage collector)'],
  ['SQL (SQLite backend, node:sqlite)', (f) => /store\/dist\/sqlite\//.test(f.url)],
  ['store (memory backend)', (f) => /store\/dist\/memory\//.test(f.url)],
  ['store semantics', (f) => /store\/dist\//.test(f.url)],
  ['building attribute objects (core defineKey)', (f) => f.functionName === 'defineKey'],
  ['validation (core schemas)', (f) => /core\/dist\//.test(f.url)],
  [
    'request validation (server fields, JSON limits)',
    (f) => /server\/dist\/(http|routes)\//.test(f.url),
  ],
  [
    'protobuf decoding',
    (f) =>
      /protobufjs|otlp\/(decode-protobuf|scan-protobuf|values)/.test(f.url) ||
      (f.url === '' && f.functionName === '' && f.lineNumber > 0) ||
      /^(utf8Slice|hexSlice|latin1Slice)$/.test(f.functionName),
  ],
  ['OTLP/JSON decoding', (f) => /otlp\/decode-json/.test(f.url)],
  ['OTLP conversion + ingest', (f) => /otlp\/(convert|ingest|routes|response)/.test(f.url)],
  [
    'JSON parse (request bodies)',
    (f) => /secure-json-parse/.test(f.url) || f.functionName === 'parse',
  ],
  [
    'response encoding (JSON.stringify, fastify reply)',
    (f) => /fast-json-stringify|fastify\/lib\/reply/.test(f.url) || f.functionName === 'stringify',
  ],
  ['routing + fastify', (f) => /fastify|find-my-way|avvio|fast-querystring|toad-cache/.test(f.url)],
  ['crypto (ids)', (f) => /crypto/.test(f.url) || /randomUUID|randomBytes/.test(f.functionName)],
  ['HTTP + sockets + event loop (node)', (f) => f.url.startsWith('node:') || f.url === ''],
  ['other', () => true],
];

/** Self-time samples of `profile` within the measured window, by stage and by function. */
function analyse(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map();
  // Only the samples taken during the measured part (not start-up, prefill or warm-up).
  let time = profile.startTime;
  profile.samples.forEach((id, i) => {
    time += profile.timeDeltas[i];
    if (time >= result.window.start && time <= result.window.end) {
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  });
  const byStage = new Map();
  const byFunction = new Map();
  let total = 0;
  let busy = 0;
  for (const [id, count] of counts) {
    const frame = nodes.get(id).callFrame;
    const [stage] = STAGES.find(([, test]) => test(frame));
    byStage.set(stage, (byStage.get(stage) ?? 0) + count);
    total += count;
    if (stage === '(idle)') continue;
    busy += count;
    const where = frame.url.replace(/^.*\/(packages|node_modules)\//, '');
    const key = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + count);
  }
  const callers = new Map();
  if (values.callers) {
    const parents = new Map();
    for (const node of profile.nodes)
      for (const child of node.children ?? []) parents.set(child, node);
    for (const [id, count] of counts) {
      if (nodes.get(id).callFrame.functionName !== values.callers) continue;
      const chain = [];
      for (let node = parents.get(id); node && chain.length < 6; node = parents.get(node.id)) {
        chain.push(node.callFrame.functionName || '(anonymous)');
      }
      const key = chain.join(' < ');
      callers.set(key, (callers.get(key) ?? 0) + count);
    }
  }
  return { byStage, byFunction, busy, busyShare: busy / Math.max(total, 1), callers };
}

function report(title, { byStage, byFunction, busy, busyShare, callers }) {
  const pct = (n) => `${((100 * n) / busy).toFixed(1).padStart(5)}%`;
  const micros = (busyShare * result.seconds * 1e6) / requests;
  console.log(
    `\n${title}: busy ${(100 * busyShare).toFixed(0)}% of the measured time, ${micros.toFixed(0)} µs CPU per request`,
  );
  console.log('  by stage (self time, % of busy samples)');
  for (const [stage, count] of [...byStage].sort((a, b) => b[1] - a[1])) {
    if (stage !== '(idle)') console.log(`    ${pct(count)}  ${stage}`);
  }
  console.log(`  top ${values.top} functions (self time)`);
  const top = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
  for (const [name, count] of top) console.log(`    ${pct(count)}  ${name}`);
  if (callers.size > 0) console.log(`  callers of ${values.callers}`);
  for (const [chain, count] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 8)) {
    console.log(`    ${pct(count)}  ${chain}`);
  }
}

const requests =
  kind === 'ingest'
    ? result.completed / 100
    : Math.round(result.completed * result.requestsPerLifecycle);
console.log(
  `${values.backend}, ${values.cell}: ${Math.round(result.rate)}/s (${result.completed} in ${result.seconds.toFixed(2)} s; ` +
    `${requests} requests)${result.notes.length ? ` notes: ${result.notes.join('; ')}` : ''}`,
);
const serverCpu = cpuReadings[1] - cpuReadings[0];
if (values.json) {
  const { byStage, busy } = analyse(profile);
  const stages = Object.fromEntries(
    [...byStage].filter(([stage]) => stage !== '(idle)').map(([stage, n]) => [stage, n / busy]),
  );
  console.log(JSON.stringify({ rate: result.rate, micros: serverCpu / requests, stages }));
  process.exit(0);
}
console.log(
  `server CPU time (process.cpuUsage) in the measured part: ${(serverCpu / 1e6).toFixed(2)} s, ` +
    `${(serverCpu / requests).toFixed(0)} µs per request` +
    (kind === 'ingest'
      ? `, ${((serverCpu / result.completed) * 1000).toFixed(0)} ns per span`
      : `, ${(serverCpu / result.completed).toFixed(0)} µs per lifecycle`),
);
report('server', analyse(profile));
report('client (this process)', analyse(clientProfile));
