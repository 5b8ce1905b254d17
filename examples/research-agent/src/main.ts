import { runResearchAgent } from './run.js';

// Progress on stderr; stdout gets exactly one JSON summary line.
const summary = await runResearchAgent({ log: (line) => process.stderr.write(`${line}\n`) });
process.stdout.write(`${JSON.stringify(summary)}\n`);
