import { NotFoundError, StoreError, ValidationError } from '@arclight/core';

/** A failure worth retrying: 5xx / 408 answers, network errors and timeouts. Internal to the client. */
export class TransientFailure extends Error {
  constructor(readonly error: StoreError) {
    super(error.message, { cause: error });
  }
}

/** The error a client call raises for a non-2xx answer. */
export function errorFromResponse(status: number, label: string, body: string): StoreError {
  const detail = detailOf(body) ?? `HTTP ${status}`;
  if (status === 400 || status === 422) return new ValidationError(detail);
  if (status === 404) return new NotFoundError(detail);
  return new StoreError(status >= 500 ? `${label}: server error ${status}: ${detail}` : detail);
}

/** Whether an HTTP status is transient (retried): 5xx and 408, as upstream's client. */
export const isTransientStatus = (status: number): boolean => status >= 500 || status === 408;

/** The error a client call raises when the server could not be reached or did not answer in time. */
export function errorFromNetwork(label: string, cause: unknown): StoreError {
  const reason = isTimeout(cause)
    ? 'timed out'
    : cause instanceof Error
      ? describeNetworkError(cause)
      : String(cause);
  return new StoreError(`${label}: request failed: ${reason}`, { cause });
}

export function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

function describeNetworkError(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error && cause.message) return `${error.message} (${cause.message})`;
  return error.message;
}

/**
 * The `detail` of an error body: FastAPI/Arclight `{"detail": "..."}`, FastAPI 422 `{"detail": [{loc, msg}]}`,
 * or the raw text when it is not JSON.
 */
function detailOf(body: string): string | undefined {
  if (!body) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body.slice(0, 500);
  }
  if (parsed && typeof parsed === 'object' && 'detail' in parsed) {
    const detail = (parsed as { detail: unknown }).detail;
    const raised = raisedException(parsed as Record<string, unknown>);
    if (typeof detail === 'string') return raised ? `${detail}: ${raised}` : detail;
    if (Array.isArray(detail)) return detail.map(describeValidationItem).join('; ');
    return JSON.stringify(detail);
  }
  if (parsed && typeof parsed === 'object' && 'message' in parsed) {
    const message = (parsed as { message: unknown }).message;
    if (typeof message === 'string') return message;
  }
  return body.slice(0, 500);
}

/**
 * Upstream's server answers store exceptions with `500 {"detail": "Internal server error", "error_type",
 * "traceback"}`; the traceback's last `<ErrorType>: <message>` line is the exception, which names the id.
 */
function raisedException(body: Record<string, unknown>): string | undefined {
  const { error_type: errorType, traceback } = body;
  if (typeof errorType !== 'string' || !errorType) return undefined;
  if (typeof traceback !== 'string') return errorType;
  const lines = traceback.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.startsWith(`${errorType}:`) || new RegExp(`^[\\w.]+\\.${errorType}:`).test(line))
      return line.trim();
  }
  return errorType;
}

function describeValidationItem(item: unknown): string {
  if (item && typeof item === 'object') {
    const { loc, msg } = item as { loc?: unknown; msg?: unknown };
    const where = Array.isArray(loc) ? loc.join('.') : undefined;
    if (typeof msg === 'string') return where ? `${where}: ${msg}` : msg;
  }
  return JSON.stringify(item);
}
