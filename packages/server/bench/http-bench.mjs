// HTTP benchmark of the store server: rollout lifecycles/s and OTLP ingest spans/s through @arclight/client,
// against our server (memory / SQLite, child process or same process; PostgreSQL with 1, 2 or 4 processes via
// `arclight store --backend postgres --workers N`) and upstream's Python `agl store`.
// Prints figures; asserts nothing. A fresh server per measurement. Usage (after `npm run build`):
//   node bench/http-bench.mjs [--targets memory,sqlite,memory-inproc,upstream,ceiling,postgres,postgres-2] [--concurrency 1,8,32]
//     [--lifecycles 6000] [--seconds 10] [--span-paths otlp,rest] [--otlp-requests 2000] [--otlp-batch 100]
//     [--senders 8] [--no-runner]   (--span-paths '' measures the ingest cell only)
// The runner cell (client-server no-op rollouts/s with 4 runner processes, ours against upstream's Trainer) is
// @arclight/trainer's bench/runner-bench.mjs, run as a child at the end; --no-runner leaves it out.
// Targets memory-base / sqlite-base run the server of another built checkout (ARCLIGHT_BENCH_BASE=<its root>),
// for before/after ratios measured in the same run.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatTable, loadLine, machineLine } from './report.mjs';
import { cleanUp, TARGETS, upstreamAvailable, upstreamVersion } from './targets.mjs';
import { runLifecycles, runOtlpIngest, runRoundTrips } from './workloads.mjs';

const { values } = parseArgs({
  options: {
    targets: {
      type: 'string',
      default: 'memory,sqlite,memory-inproc,upstream,ceiling,postgres,postgres-2',
    },
    concurrency: { type: 'string', default: '1,8,32' },
    lifecycles: { type: 'string', default: '6000' },
    seconds: { type: 'string', default: '10' },
    'span-paths': { type: 'string', default: 'otlp,rest' },
    'otlp-requests': { type: 'string', default: '2000' },
    'otlp-batch': { type: 'string', default: '100' },
    senders: { type: 'string', default: '8' },
    runner: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const targetKeys = values.targets.split(',');
const levels = values.concurrency.split(',').map(Number);
const spanPaths = values['span-paths'].split(',').filter(Boolean); // '' = ingest only
const lifecycles = Number(values.lifecycles);
const seconds = Number(values.seconds);
const otlp = {
  requests: Number(values['otlp-requests']),
  batch: Number(values['otlp-batch']),
  senders: Number(values.senders),
  seconds,
};
for (const key of targetKeys) {
  if (!TARGETS[key]) throw new Error(`--targets: unknown target ${key} (${Object.keys(TARGETS)})`);
}

process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

const PATH_TITLE = { otlp: 'OTLP', rest: 'REST' };
const columns = [
  ...spanPaths.flatMap((path) =>
    levels.map((c) => ({ key: `${path}:${c}`, title: `${PATH_TITLE[path]} c=${c}` })),
  ),
  { key: 'ingest', title: `ingest spans/s` },
];
const log = (line) => process.stderr.write(`${line}\n`);
const notes = [];

async function measure(row, name, run) {
  let server;
  try {
    server = await row.target.start();
    const result = await run(server.url);
    const extra = result.notes.length > 0 ? ` (${result.notes.join('; ')})` : '';
    const figures = `${result.completed} in ${result.seconds.toFixed(2)} s → ${Math.round(result.rate)}/s`;
    log(`  ${row.label}: ${figures}${extra}`);
    for (const note of result.notes) notes.push(`${row.label}, ${name}: ${note}`);
    return result;
  } catch (error) {
    log(`  ${row.label}: ERROR ${error.message}`);
    notes.push(`${row.label}, ${name}: ${error.message.split('\n')[0]}`);
    return { error };
  } finally {
    await server?.stop();
  }
}

const startLoad = loadLine();
const rows = [];
let upstreamLabel;
for (const key of targetKeys) {
  const target = TARGETS[key];
  if (target.upstream && !upstreamAvailable()) {
    log('upstream skipped: venv missing (run `bash scripts/python-env.sh` at the repo root)');
    notes.push('upstream skipped: venv missing');
    continue;
  }
  const label = target.upstream ? `upstream agl ${upstreamVersion()} (Python)` : target.label;
  if (target.upstream) upstreamLabel = label;
  rows.push({ label, target, cells: {} });
}

// Cell by cell, every target in turn, so that load from other processes spreads over all targets.
for (const path of spanPaths) {
  for (const concurrency of levels) {
    const name = `lifecycles, spans via ${PATH_TITLE[path]}, c=${concurrency}`;
    const options = { concurrency, lifecycles, seconds, spanPath: path };
    log(`${name}:`);
    for (const row of rows) {
      const run = row.target.ceiling ? runRoundTrips : runLifecycles;
      row.cells[`${path}:${concurrency}`] = await measure(row, name, (url) => run(url, options));
    }
  }
}
const ingestName = `OTLP ingest, ${otlp.senders} senders`;
log(`${ingestName}:`);
for (const row of rows.filter((row) => !row.target.ceiling)) {
  row.cells.ingest = await measure(row, ingestName, (url) => runOtlpIngest(url, otlp));
}

/**
 * The runner cell: @arclight/trainer's runner bench for client-server-4 (and upstream's Trainer with 4 runner
 * processes when the upstream target is measured), in a child process; its `RESULT` line has the rates.
 */
function runRunnerCell(withUpstream) {
  const script = fileURLToPath(new URL('../../trainer/bench/runner-bench.mjs', import.meta.url));
  if (!existsSync(script)) return Promise.reject(new Error(`missing ${script}`));
  const only = withUpstream ? 'client-server-4,upstream' : 'client-server-4';
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, '--only', only, '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = output.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)).rate);
      else reject(new Error(`runner bench exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
}

let runnerRates;
if (values.runner) {
  log('runner cell: client-server no-op rollouts/s, 4 runner processes (@arclight/trainer bench):');
  try {
    runnerRates = await runRunnerCell(upstreamLabel !== undefined);
    log(`  ${JSON.stringify(runnerRates)}`);
  } catch (error) {
    log(`  ERROR ${error.message}`);
    notes.push(`runner cell: ${error.message.split('\n')[0]}`);
  }
}

const ratioRows = upstreamLabel
  ? rows
      .filter((row) => row.label !== upstreamLabel)
      .map((row) => ({
        label: `ratio ${row.label} / upstream`,
        of: row.label,
        over: upstreamLabel,
      }))
  : [];

console.log('');
console.log(`machine: ${machineLine()}`);
console.log(`load average (1/5/15 min): ${startLoad} at start, ${loadLine()} at end`);
console.log(
  `lifecycle = a runner's turn through @arclight/client's runnerCycle (finish the previous attempt + dequeue: ` +
    `one request with the runner-cycle extension, v0.x routes otherwise) → 10 spans; ${lifecycles} per cell or ` +
    `${seconds} s, whichever first; OTLP = one addManySpans batch (POST /v1/traces), REST = 10 × POST /v1/agl/spans`,
);
console.log(
  `ingest = ${otlp.requests} × ${otlp.batch}-span protobuf POST /v1/traces, ${otlp.senders} senders ` +
    `(or ${seconds} s), sent with node:http keep-alive; a fresh server per cell; lifecycle client: ` +
    `@arclight/client on ${process.version}`,
);
if (rows.some((row) => row.target.ceiling)) {
  console.log(
    'ceiling = no store: a bare node:http server with a fixed answer, sent the same requests per lifecycle ' +
      '(encoded up front, node:http keep-alive); its ratio row is the most any Node server can reach here',
  );
}
console.log('');
console.log('lifecycles/s by span path and concurrency c; OTLP ingest in spans/s');
console.log(formatTable(columns, rows, ratioRows));
if (runnerRates) {
  const ours = runnerRates['client-server-4'];
  const theirs = runnerRates['upstream-4'];
  const integer = (rate) => Math.round(rate).toLocaleString('en-US');
  console.log('');
  console.log(
    `runner: client-server, 4 runner processes, no-op agent, in-memory store: ours (Trainer + runner-cycle ` +
      `extension) ${integer(ours)} rollouts/s` +
      (theirs
        ? `, upstream agl Trainer ${integer(theirs)} rollouts/s → ${(ours / theirs).toFixed(1)}×`
        : ', upstream not measured'),
  );
}
if (notes.length > 0) {
  console.log('');
  for (const note of notes) console.log(`note: ${note}`);
}
