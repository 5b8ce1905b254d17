import type { ExportQueue } from '../export/export-queue.js';
import type { RateLimitedWarnings } from '../export/warnings.js';
import { isSampled, type ReadableSpanLike, type SpanProcessorLike } from '../otel-types.js';
import { noteSpanEnd } from './span-clock.js';
import { currentScope, type TraceScope } from './trace-scope.js';

/**
 * Arclight's span processor. `onStart` attributes the span to the `traceContext` it starts in (read from
 * async-local storage, so concurrent rollouts stay apart); `onEnd` records the finished span in that scope and,
 * when the scope has rollout ids, queues it for export. Spans started outside any `traceContext` of its tracer
 * are ignored. It never throws and never waits; it works in SDK 1.x, 2.x and 3.x providers.
 */
export class LightningSpanProcessor implements SpanProcessorLike {
  private readonly scopes = new WeakMap<object, TraceScope>();
  private closed = false;

  constructor(
    private readonly owner: object,
    private readonly queue: ExportQueue,
    private readonly warnings: RateLimitedWarnings,
    private readonly onShutdown: () => Promise<void>,
  ) {}

  onStart(span: object, _parentContext?: unknown): void {
    const scope = currentScope();
    if (scope && scope.owner === this.owner && !this.closed) this.scopes.set(span, scope);
  }

  onEnd(ended: object): void {
    const scope = this.scopes.get(ended);
    if (!scope) return;
    this.scopes.delete(ended);
    const span = ended as ReadableSpanLike;
    noteSpanEnd(span.endTime);
    try {
      if (!isSampled(span)) return;
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
