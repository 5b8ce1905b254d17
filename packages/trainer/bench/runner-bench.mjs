// Runner throughput (rollouts/s) of a no-op agent, and HTTP requests per rollout of client-server runners:
// in-process and client-server (Arclight's runner-cycle extension; and the v0.x routes only, as against
// upstream's server) with 1/4/16 runners, plus upstream agentlightning 0.3.0's own Trainer with
// ClientServerExecutionStrategy and a no-op agent in the same run (when the venv exists: bash scripts/python-env.sh).
// `npm run bench -w packages/trainer` (builds first); `-- --only client-server` runs only the configurations
// whose name contains that text (a comma-separated list: any of them; `upstream` selects upstream's Trainer);
// `--json` also prints one `RESULT {...}` line with rollouts/s by configuration (the server's http-bench reads
// it for its runner cell). Client-server runner processes re-run this script with `--config <name>` and
// ARCLIGHT_ROLE=runner; they only build the trainer of that configuration.
import { spawn } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { PromptTemplate } from '@arclight/core';
import { rollout } from '@arclight/runner';
import { InMemoryLightningStore } from '@arclight/store';
import { ClientServerExecutionStrategy, isRunnerProcess, Trainer } from '@arclight/trainer';

const ROLLOUTS = { 'in-process': 2000, 'client-server': 2000, 'client-server-v0': 1000 };
const UPSTREAM_ROLLOUTS = 400;
const RUNNERS = [1, 4, 16];
const CONFIGS = Object.keys(ROLLOUTS).flatMap((strategy) =>
  RUNNERS.map((n) => ({ name: `${strategy}-${n}`, strategy, n, rollouts: ROLLOUTS[strategy] })),
);
const RUNNER = { pollInterval: 0.05, intervalJitter: 0.01, heartbeatInterval: 5, logger: null };
const agent = rollout(async () => {});
const VENV_PYTHON = fileURLToPath(new URL('../../../.venv/bin/python', import.meta.url));
const UPSTREAM_BENCH = fileURLToPath(new URL('./upstream_runner_bench.py', import.meta.url));

/** HTTP requests the server of this process received, by route (ids folded), from the runner processes. */
const requests = new Map();
subscribe('http.server.request.start', ({ request }) => {
  const route = `${request.method} ${request.url.split('?')[0].replace(/\/(ro|at|rs|sp|Worker)-[^/]+/g, '/{id}')}`;
  requests.set(route, (requests.get(route) ?? 0) + 1);
});
const snapshot = () => new Map(requests);
function requestsSince(before) {
  const delta = {};
  for (const [route, n] of requests) {
    const d = n - (before.get(route) ?? 0);
    if (d > 0) delta[route] = d;
  }
  return delta;
}

/**
 * CPU seconds used so far by this process (server and algorithm) and by the given child processes (runners;
 * Linux /proc, else 0).
 */
function cpuSeconds(pids) {
  const own = process.cpuUsage();
  const main = (own.user + own.system) / 1e6;
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ (100) ticks
    } catch {
      // not Linux, or the process is gone
    }
  }
  return { main, runners: total };
}

/**
 * Waits until every runner has registered (first heartbeat), publishes one resources update (as upstream's
 * runner requires resources), then times enqueue → all finished.
 */
function timedAlgorithm(config, out) {
  return {
    async run({ store, signal }) {
      while (!signal.aborted && (await store.queryWorkers()).total < config.n) {
        await new Promise((r) => setTimeout(r, 20));
      }
      await store.updateResources('default', {
        prompt: new PromptTemplate({ template: 'noop', engine: 'f-string' }),
      });
      const before = snapshot();
      const pids = out.strategy?.runnerPids ?? [];
      const cpuBefore = cpuSeconds(pids);
      const started = performance.now();
      const ids = (
        await store.enqueueManyRollouts(
          Array.from({ length: config.rollouts }, (_, i) => ({ input: i })),
        )
      ).map((r) => r.rollout_id);
      // Count finished rollouts through the status index (waiting on thousands of ids would cost more
      // than the runners being measured).
      const finished = async (status_in) =>
        (await store.queryRollouts({ status_in, limit: 1 })).total;
      while (
        !signal.aborted &&
        (await finished(['succeeded', 'failed', 'cancelled'])) < ids.length
      ) {
        await new Promise((r) => setTimeout(r, 10));
      }
      out.seconds = (performance.now() - started) / 1000;
      const cpuAfter = cpuSeconds(pids);
      out.cpu = {
        main: cpuAfter.main - cpuBefore.main,
        runners: cpuAfter.runners - cpuBefore.runners,
      };
      out.requests = requestsSince(before);
      out.succeeded = await finished(['succeeded']);
    },
  };
}

function trainerFor(config, out) {
  const strategy =
    config.strategy === 'in-process'
      ? 'in-process'
      : new ClientServerExecutionStrategy({
          nRunners: config.n,
          serverPort: 0,
          runnerArgs: ['--config', config.name],
          gracefulTimeout: 10,
          clientOptions: { extensions: config.strategy === 'client-server' },
        });
  out.strategy = strategy === 'in-process' ? null : strategy;
  return new Trainer({
    nRunners: config.n,
    strategy,
    store: () => new InMemoryLightningStore(),
    algorithm: timedAlgorithm(config, out),
    runner: RUNNER,
    logger: null,
  });
}

/** Upstream's Trainer (client-server, n runner processes, no-op agent); null when the venv is missing. */
function upstreamRun(n, rollouts) {
  if (!existsSync(VENV_PYTHON)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const child = spawn(VENV_PYTHON, [UPSTREAM_BENCH, String(n), String(rollouts)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = output.split('\n').find((l) => l.startsWith('RESULT '));
      if (line) resolve(JSON.parse(line.slice('RESULT '.length)));
      else reject(new Error(`upstream bench exited with ${code}:\n${output.slice(-3000)}`));
    });
  });
}

/** "total (main + runners)" milliseconds per rollout. */
function cpuPerRollout(cpu, rollouts) {
  const ms = (seconds) => ((seconds * 1000) / rollouts).toFixed(2);
  return cpu.runners > 0
    ? `${ms(cpu.main + cpu.runners)} (${ms(cpu.main)} + ${ms(cpu.runners)})`
    : ms(cpu.main);
}

const argIndex = process.argv.indexOf('--config');
const onlyIndex = process.argv.indexOf('--only');
const only = (onlyIndex > 0 ? process.argv[onlyIndex + 1] : '').split(',');
const selected = (name) => only.some((text) => name.includes(text));
if (isRunnerProcess() && argIndex > 0) {
  const config = CONFIGS.find((c) => c.name === process.argv[argIndex + 1]);
  await trainerFor(config, {}).fit(agent);
} else {
  const load = loadavg()[0].toFixed(1);
  const rows = [];
  const rate = {};
  for (const config of CONFIGS.filter((c) => selected(c.name))) {
    const out = {};
    await trainerFor(config, out).fit(agent);
    const total = Object.values(out.requests).reduce((a, b) => a + b, 0);
    rate[config.name] = config.rollouts / out.seconds;
    rows.push({
      config: config.name,
      runners: config.n,
      rollouts: config.rollouts,
      succeeded: out.succeeded,
      seconds: out.seconds.toFixed(2),
      'rollouts/s': rate[config.name].toFixed(0),
      'requests/rollout':
        config.strategy === 'in-process' ? '-' : (total / config.rollouts).toFixed(2),
      'CPU ms/rollout': cpuPerRollout(out.cpu, config.rollouts),
    });
    process.stderr.write(`${config.name}: ${rows.at(-1)['rollouts/s']} rollouts/s\n`);
    if (total > 0) process.stderr.write(`  requests: ${JSON.stringify(out.requests)}\n`);
  }
  if (selected('upstream-4')) {
    const n = 4;
    const result = await upstreamRun(n, UPSTREAM_ROLLOUTS);
    if (result) {
      rate[`upstream-${n}`] = result.rollouts / result.seconds;
      rows.push({
        config: `upstream agl 0.3.0 Trainer (client-server)-${n}`,
        runners: n,
        rollouts: result.rollouts,
        succeeded: result.succeeded,
        seconds: result.seconds.toFixed(2),
        'rollouts/s': rate[`upstream-${n}`].toFixed(0),
        'requests/rollout': '-',
        'CPU ms/rollout': cpuPerRollout({ main: result.cpu, runners: 0 }, result.rollouts),
      });
    } else {
      process.stderr.write('upstream: no .venv (bash scripts/python-env.sh); skipped\n');
    }
  }
  console.log(
    `\nNo-op agent, InMemoryLightningStore, node ${process.version}, ${availableParallelism()} CPU(s), ` +
      `load average at start ${load}`,
  );
  console.table(rows);
  const up = rate['upstream-4'];
  for (const name of ['client-server-4', 'client-server-v0-4']) {
    if (up && rate[name]) console.log(`${name} / upstream-4: ${(rate[name] / up).toFixed(1)}x`);
  }
  if (rate['client-server-4'] && rate['client-server-v0-4']) {
    const gain = rate['client-server-4'] / rate['client-server-v0-4'];
    console.log(`client-server-4 / client-server-v0-4 (the extension's gain): ${gain.toFixed(2)}x`);
  }
  if (process.argv.includes('--json')) console.log(`RESULT ${JSON.stringify({ load, rate })}`);
}
