import { runCalcAgent } from './run.js';

// Progress on stderr; stdout gets exactly one JSON summary line.
const summary = await runCalcAgent({ log: (line) => process.stderr.write(`${line}\n`) });
process.stdout.write(`${JSON.stringify(summary)}\n`);
