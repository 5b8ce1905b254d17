/** How an exception of the agent is recorded in the failed attempt's metadata (`metadata.error`). */
export interface AttemptErrorInfo {
  /** The error's class name (`error.name`, e.g. `"TypeError"`), or the JavaScript type of a non-Error throw. */
  type: string;
  message: string;
  stack: string | null;
}

/** Describes anything thrown, for JSON. */
export function describeError(error: unknown): AttemptErrorInfo {
  if (error instanceof Error) {
    return {
      type: error.name || error.constructor?.name || 'Error',
      message: error.message,
      stack: error.stack ?? null,
    };
  }
  let message: string;
  try {
    message = typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error));
  } catch {
    message = String(error);
  }
  return { type: error === null ? 'null' : typeof error, message, stack: null };
}
