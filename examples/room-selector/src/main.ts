import { parseArgs } from 'node:util';
import { runDemo } from './demo.js';
import { loadRoomTasks } from './tasks.js';

const USAGE = `Usage: npm start -w examples/room-selector -- [options]

APO improves the room-selector agent's prompt, then exports the rollouts as training data.
Offline by default (a simulated model); set OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL for a real one.

  --out DIR            output folder (default ./room-selector-run)
  --runners N          runners (default 4)
  --client-server      runners as processes talking HTTP to a store server (default: in-process)
  --store URL          use a running store server (e.g. arclight store --backend postgres --workers 2)
                       instead of the SQLite file in --out
  --rounds N           APO beam rounds (default 3)
  --beam-width N       (default 2)    --branch-factor N  (default 2)
  --val-batch N        validation batch per round (default 10)
  --seed N             APO's random seed (default 7)
  --tasks N            use only the first N tasks (default: all 57)
  --format NAME        trainer export format (default verl-parquet offline, trl-sft with a real model)
  --offline            use the simulated model even if OPENAI_* is set
  --real-model         a real model offline: SmolLM2-135M-Instruct on the CPU (fetched once, ~180 MB); unless
                       given, --tasks 12 --rounds 1 --val-batch 4 --runners 2 (a 135M model at ~20 tokens/s)
  --json               print the summary as JSON at the end
`;

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    runners: { type: 'string' },
    'client-server': { type: 'boolean' },
    store: { type: 'string' },
    rounds: { type: 'string' },
    'beam-width': { type: 'string' },
    'branch-factor': { type: 'string' },
    'val-batch': { type: 'string' },
    seed: { type: 'string' },
    tasks: { type: 'string' },
    format: { type: 'string' },
    offline: { type: 'boolean' },
    'real-model': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const int = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`--${name}: expected a positive integer, got ${value}\n`);
    process.exit(2);
  }
  return n;
};

const real = values['real-model'] === true || process.env.ARCLIGHT_REAL_MODEL === '1';
// The real model generates ~20 tokens/s on one CPU thread: a smaller run unless asked otherwise.
const realDefault = (n: number) => (real ? n : undefined);
const taskCount = int('tasks', values.tasks) ?? realDefault(12);
const summary = await runDemo({
  tasks: taskCount === undefined ? undefined : loadRoomTasks().slice(0, taskCount),
  outDir: values.out,
  storeUrl: values.store,
  nRunners: int('runners', values.runners) ?? realDefault(2),
  strategy: values['client-server'] ? 'client-server' : 'in-process',
  beamRounds: int('rounds', values.rounds) ?? realDefault(1),
  beamWidth: int('beam-width', values['beam-width']),
  branchFactor: int('branch-factor', values['branch-factor']),
  valBatchSize: int('val-batch', values['val-batch']) ?? realDefault(4),
  seed: values.seed === undefined ? undefined : Number(values.seed),
  format: values.format,
  offline: values.offline,
  realModel: real,
});
if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
