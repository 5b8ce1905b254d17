import type { Logger } from '@arclight/core';

/** Where the tracer reports trouble (dropped spans, failed deliveries): the `warn` of a {@link Logger}. */
export type TracerLogger = Pick<Logger, 'warn'>;

const consoleLogger: TracerLogger = {
  warn: (message) => console.warn(`[arclight/otel] ${message}`),
};

/**
 * Rate-limits warnings per kind: the first warning of a kind is logged, further ones within `intervalMs` are
 * counted and summarised with the next warning of that kind that gets through.
 */
export class RateLimitedWarnings {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly logger: TracerLogger | null = consoleLogger,
    private readonly intervalMs = 10_000,
  ) {}

  warn(kind: string, message: string): void {
    if (!this.logger) return;
    const now = Date.now();
    const state = this.last.get(kind);
    if (state && now - state.at < this.intervalMs) {
      state.suppressed += 1;
      return;
    }
    const suffix = state?.suppressed ? ` (${state.suppressed} similar warning(s) suppressed)` : '';
    this.last.set(kind, { at: now, suppressed: 0 });
    try {
      this.logger.warn(message + suffix);
    } catch {
      // a broken logger must not break tracing
    }
  }
}
