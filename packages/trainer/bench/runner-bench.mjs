// Runner throughput (rollouts/s) of a no-op agent: in-process vs client-server, 1/4/16 runners.
// `npm run bench` (builds first). Client-server runner processes re-run this script with
// `--config <name>` and ARCLIGHT_ROLE=runner; they only build the trainer of that configuration.
import { availableParallelism } from 'node:os';
import { rollout } from '@arclight/runner';
import { InMemoryLightningStore } from '@arclight/store';
import { ClientServerExecutionStrategy, isRunnerProcess, Trainer } from '@arclight/trainer';

const ROLLOUTS = { 'in-process': 2000, 'client-server': 400 };
const RUNNERS = [1, 4, 16];
const CONFIGS = Object.keys(ROLLOUTS).flatMap((strategy) =>
  RUNNERS.map((n) => ({ name: `${strategy}-${n}`, strategy, n, rollouts: ROLLOUTS[strategy] })),
);
const RUNNER = { pollInterval: 0.05, intervalJitter: 0.01, heartbeatInterval: 5, logger: null };
const agent = rollout(async () => {});

/** Waits until every runner has registered (first heartbeat), then times enqueue → all finished. */
function timedAlgorithm(config, out) {
  return {
    async run({ store, signal }) {
      while (!signal.aborted && (await store.queryWorkers()).total < config.n) {
        await new Promise((r) => setTimeout(r, 20));
      }
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
        });
  return new Trainer({
    nRunners: config.n,
    strategy,
    store: () => new InMemoryLightningStore(),
    algorithm: timedAlgorithm(config, out),
    runner: RUNNER,
    logger: null,
  });
}

const argIndex = process.argv.indexOf('--config');
if (isRunnerProcess() && argIndex > 0) {
  const config = CONFIGS.find((c) => c.name === process.argv[argIndex + 1]);
  await trainerFor(config, {}).fit(agent);
} else {
  const rows = [];
  for (const config of CONFIGS) {
    const out = {};
    await trainerFor(config, out).fit(agent);
    rows.push({
      strategy: config.strategy,
      runners: config.n,
      rollouts: config.rollouts,
      succeeded: out.succeeded,
      seconds: out.seconds.toFixed(2),
      'rollouts/s': (config.rollouts / out.seconds).toFixed(0),
    });
    process.stderr.write(`${config.name}: ${rows.at(-1)['rollouts/s']} rollouts/s\n`);
  }
  console.log(
    `\nNo-op agent, InMemoryLightningStore, node ${process.version}, ${availableParallelism()} CPU(s)`,
  );
  console.table(rows);
}
