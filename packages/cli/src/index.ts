import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export { type ExportCommandOptions, registerExportCommand } from './commands/export.js';
export { formatSummary, runExport } from './commands/export-run.js';
export {
  BACKENDS,
  type Backend,
  LOG_LEVELS,
  type LogLevel,
  runStore,
  type StoreCommandOptions,
} from './commands/store.js';
export { createProgram } from './program.js';
