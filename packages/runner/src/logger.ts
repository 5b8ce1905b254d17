/** Where runners and trainers report progress and problems. `debug`/`info` are optional. */
export interface RunnerLogger {
  debug?(message: string): void;
  info?(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** The default logger: warnings and errors to the console; info and debug are dropped. */
export const consoleLogger: RunnerLogger = {
  warn: (message) => console.warn(message),
  error: (message, error) =>
    error === undefined ? console.error(message) : console.error(message, error),
};

/** A logger that drops everything (`logger: null`). */
export const silentLogger: RunnerLogger = {
  warn: () => {},
  error: () => {},
};

/** `undefined` → the console logger; `null` → silence. */
export function resolveLogger(logger: RunnerLogger | null | undefined): RunnerLogger {
  if (logger === null) return silentLogger;
  return logger ?? consoleLogger;
}
