/** Where algorithms report progress (structurally the runner's `RunnerLogger`). `debug`/`info` are optional. */
export interface AlgorithmLogger {
  debug?(message: string): void;
  info?(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** Info, warnings and errors to the console. */
export const consoleAlgorithmLogger: AlgorithmLogger = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
  error: (message, error) =>
    error === undefined ? console.error(message) : console.error(message, error),
};

const silent: AlgorithmLogger = { warn: () => {}, error: () => {} };

/** `undefined` → the console; `null` → silence. */
export function resolveAlgorithmLogger(
  logger: AlgorithmLogger | null | undefined,
): AlgorithmLogger {
  if (logger === null) return silent;
  return logger ?? consoleAlgorithmLogger;
}
