/** Where runners, trainers, algorithms and tracers report progress and problems. `debug`/`info` are optional. */
export interface Logger {
  debug?(message: string): void;
  info?(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

const toConsoleError = (message: string, error?: unknown): void =>
  error === undefined ? console.error(message) : console.error(message, error);

/** Warnings and errors to the console; info and debug are dropped (the runner's and trainer's default). */
export const consoleLogger: Logger = {
  warn: (message) => console.warn(message),
  error: toConsoleError,
};

/** Info, warnings and errors to the console (the algorithms' default: they report progress). */
export const verboseConsoleLogger: Logger = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
  error: toConsoleError,
};

/** A logger that drops everything (`logger: null`). */
export const silentLogger: Logger = {
  warn: () => {},
  error: () => {},
};

/** `undefined` → `fallback` (the console logger); `null` → silence. */
export function resolveLogger(
  logger: Logger | null | undefined,
  fallback: Logger = consoleLogger,
): Logger {
  if (logger === null) return silentLogger;
  return logger ?? fallback;
}
