export { type AglStore, type AglStoreOptions, startAglStore } from './agl-store.js';
export { freePort } from './free-port.js';
export { PythonProcess, type PythonStartOptions } from './process.js';
export {
  type PythonResult,
  type RunPythonOptions,
  runPython,
  runPythonJson,
  type SummaryOptions,
  summaryOf,
} from './run.js';
export {
  AGL,
  hasPython,
  PYTHON,
  PYTHON_TIMEOUT_MS,
  pythonEnv,
  REPO_ROOT,
  requirePython,
  SKIP_PYTHON,
} from './venv.js';
