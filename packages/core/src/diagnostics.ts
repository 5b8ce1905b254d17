/**
 * Warnings that tell a user, at the moment it happens, why their traces will not become training data — and
 * the fix. Each cause (`code`) warns once per process, through Node's `process.emitWarning`, so the warning
 * shows on stderr as `(node:PID) [ARCLIGHT_…] ArclightWarning: …`, can be observed with
 * `process.on('warning', …)` and silenced with `--no-warnings`. The record of what was said is kept on
 * `globalThis`, so duplicate copies of this package in one process agree.
 */

/** Codes of the warnings Arclight emits; each names one cause. */
export const WarningCodes = Object.freeze({
  /** An LLM call recorded without prompt/response token ids; the message names the option that requests them. */
  NO_TOKEN_IDS: 'ARCLIGHT_NO_TOKEN_IDS',
  /** A framework calls the LLM through a client copy that is not instrumented; the message says how to fix it. */
  UNINSTRUMENTED_CLIENT: 'ARCLIGHT_UNINSTRUMENTED_CLIENT',
  /** LLM calls recorded without the tool definitions the model was offered; the message says how to record them. */
  NO_TOOL_DEFINITIONS: 'ARCLIGHT_NO_TOOL_DEFINITIONS',
  /** Spans recorded outside any rollout (no rollout/attempt in the trace context). */
  SPANS_OUTSIDE_ROLLOUT: 'ARCLIGHT_SPANS_OUTSIDE_ROLLOUT',
  /** A rollout sent requests to an LLM API but recorded no LLM-call span: its client is not instrumented. */
  UNTRACED_LLM_REQUESTS: 'ARCLIGHT_UNTRACED_LLM_REQUESTS',
} as const);

/** The name `process.emitWarning` shows before the message. */
export const WARNING_TYPE = 'ArclightWarning';

const SAID = Symbol.for('arclight.diagnostics.warned');

function said(): Set<string> {
  const holder = globalThis as typeof globalThis & { [SAID]?: Set<string> };
  holder[SAID] ??= new Set();
  return holder[SAID];
}

/**
 * Emits `message` as a process warning with `code`, the first time `code` (with `cause`, when given: e.g. the
 * integration that saw it) is seen in this process; later calls for the same code and cause do nothing.
 * Returns whether the warning was emitted. Never throws.
 */
export function warnOnce(code: string, message: string, cause?: string): boolean {
  const codes = said();
  const key = cause === undefined ? code : `${code}\u0000${cause}`;
  if (codes.has(key)) return false;
  codes.add(key);
  try {
    process.emitWarning(message, { type: WARNING_TYPE, code });
  } catch {
    // A warning must never break the agent that triggered it.
  }
  return true;
}

/** Whether the warning `code` (for any cause) was already emitted in this process. */
export function hasWarned(code: string): boolean {
  for (const key of said()) if (key === code || key.startsWith(`${code}\u0000`)) return true;
  return false;
}

/** Forgets which warnings were emitted (all, or those of the given codes), so they warn again. For tests. */
export function resetWarnings(...codes: string[]): void {
  const keys = said();
  if (codes.length === 0) {
    keys.clear();
    return;
  }
  for (const key of [...keys]) {
    if (codes.some((code) => key === code || key.startsWith(`${code}\u0000`))) keys.delete(key);
  }
}
