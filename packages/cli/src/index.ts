export {
  BACKENDS,
  type Backend,
  LOG_LEVELS,
  type LogLevel,
  runStore,
  type StoreCommandOptions,
} from './commands/store.js';
export { createProgram } from './program.js';
