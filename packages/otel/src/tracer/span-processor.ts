import { WarningCodes, warnOnce } from '@arclight/core';
import type { DeliveryQueue } from '../delivery/delivery-queue.js';
import type { RateLimitedWarnings } from '../delivery/warnings.js';
import { isSampled, type ReadableSpanLike, type SpanProcessorLike } from '../otel-types.js';
import { isLlmCallSpan } from './llm-calls.js';
import { noteSpanEnd } from './span-clock.js';
import { currentScope, type TraceScope } from './trace-scope.js';

/**
 * Arclight's span processor. `onStart` attributes the span to the `traceContext` it starts in (read from
 * async-local storage, so concurrent rollouts stay apart); `onEnd` records the finished span in that scope and,
 * when the scope has rollout ids, queues it for export. Spans started outside any `traceContext` of its tracer
 * are ignored — and the first LLM call among them warns once per process (`ARCLIGHT_SPANS_OUTSIDE_ROLLOUT`), since
 * that call will never become training data. It never throws and never waits; it works in SDK 1.x, 2.x and 3.x
 * providers.
 */
export class LightningSpanProcessor implements SpanProcessorLike {
  private readonly scopes = new WeakMap<object, TraceScope>();
  /** Spans started in no `traceContext` at all (of any tracer). */
  private readonly outside = new WeakSet<object>();
  private closed = false;

  constructor(
    private readonly owner: object,
    private readonly queue: DeliveryQueue,
    private readonly warnings: RateLimitedWarnings,
    private readonly onShutdown: () => Promise<void>,
  ) {}

  onStart(span: object, _parentContext?: unknown): void {
    const scope = currentScope();
    if (this.closed) return;
    if (!scope) this.outside.add(span);
    else if (scope.owner === this.owner) this.scopes.set(span, scope);
  }

  onEnd(ended: object): void {
    const scope = this.scopes.get(ended);
    if (!scope) {
      if (this.outside.delete(ended) && !this.closed) warnIfLlmCall(ended as ReadableSpanLike);
      return;
    }
    this.scopes.delete(ended);
    const span = ended as ReadableSpanLike;
    noteSpanEnd(span.endTime);
    try {
      if (!isSampled(span)) return;
      if (isLlmCallSpan(span)) scope.llmCallSpans += 1;
      const record = scope.record(span);
      if (!scope.attribution) return;
      this.queue.enqueue({ readable: span, attribution: scope.attribution, record, scope });
    } catch (error) {
      this.warnings.warn('processor', `could not process span '${span.name}': ${String(error)}`);
    }
  }

  forceFlush(): Promise<void> {
    return this.queue.flush(30_000).then(() => undefined);
  }

  /** Stops attributing new spans (the tracer has shut down; an application's provider may run on). */
  close(): void {
    this.closed = true;
  }

  /** Called by the provider it is registered with when that provider shuts down. */
  shutdown(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    return this.onShutdown();
  }
}

/** Warns (once per process) when an LLM-call span ended outside any rollout. */
function warnIfLlmCall(span: ReadableSpanLike): void {
  try {
    if (!isLlmCallSpan(span)) return;
    warnOnce(
      WarningCodes.SPANS_OUTSIDE_ROLLOUT,
      `the LLM call '${span.name}' was recorded outside any rollout, so it is not stored and will not become ` +
        'training data. Run the agent inside a rollout: `await recorder.record(task, () => agent(task))` ' +
        '(RolloutRecorder from @arclight/runner), or `tracer.traceContext({ rolloutId, attemptId }, agent)`.',
    );
  } catch {
    // A warning must never break the agent.
  }
}
