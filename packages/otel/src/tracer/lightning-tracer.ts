import {
  type Attributes,
  type Span,
  type SpanCoreFields,
  spanFromOtel,
  ValidationError,
} from '@arclight/core';
import { type TracerProvider as ApiTracerProvider, type Tracer, trace } from '@opentelemetry/api';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { DeliveryQueue, type DeliveryStats, raceTimeout } from '../delivery/delivery-queue.js';
import type { SpanDestination } from '../delivery/destination.js';
import { RateLimitedWarnings } from '../delivery/warnings.js';
import {
  type CreateSpanOptions,
  clearActiveTracer,
  type EmitterTracer,
  getActiveTracer,
  setActiveTracer,
  type TraceContextIds,
} from './active-tracer.js';
import { ensureContextManager } from './context-manager.js';
import { createInstantSpan, runInActiveSpan } from './emitter-spans.js';
import { warnIfUntracedLlmRequests, watchLlmRequests } from './llm-calls.js';
import type { LightningTracerOptions } from './options.js';
import {
  addSpanProcessor,
  type TracerProviderLike,
  tracerOf,
  unwrapProvider,
} from './provider-join.js';
import { checkNonNegative, chooseDestination, globalSdkProvider, queueOptionsOf } from './setup.js';
import { LightningSpanProcessor } from './span-processor.js';
import type { SpanRecording } from './span-recording.js';
import { runInScope, TraceScope } from './trace-scope.js';

/** Scope name of the spans created by emitters. */
export const EMITTER_SCOPE = 'agentlightning';
const DEFAULT_TRACER_NAME = 'arclight';

/** Upstream's placeholder ids for spans of a context without rollout ids. */
const DUMMY_ROLLOUT_ID = 'rollout-dummy';
const DUMMY_ATTEMPT_ID = 'attempt-dummy';

/**
 * Arclight's tracer: OpenTelemetry spans attributed to rollouts and attempts and delivered to a
 * LightningStore (upstream `OtelTracer`). See the package README for attribution, export paths and failure
 * behaviour.
 */
export class LightningTracer implements EmitterTracer {
  /** Arclight's span processor; hand it to a provider you construct (`spanProcessors: [...]`). */
  readonly spanProcessor: LightningSpanProcessor;
  /** Where spans go. */
  readonly destination: SpanDestination;
  private provider: TracerProviderLike;
  private readonly ownProvider: TracerProvider | null;
  private readonly queue: DeliveryQueue;
  private readonly warnings: RateLimitedWarnings;
  private readonly flushOnContextEnd: boolean;
  private readonly contextFlushTimeoutMillis: number;
  private readonly shutdownTimeoutMillis: number;
  private lastTrace: Span[] = [];
  private exportClosed: Promise<void> | null = null;
  private shutDown: Promise<void> | null = null;

  constructor(options: LightningTracerOptions = {}) {
    watchLlmRequests();
    this.warnings = new RateLimitedWarnings(
      options.logger === undefined ? undefined : options.logger,
      options.warningIntervalMillis,
    );
    this.destination = chooseDestination(options);
    this.queue = new DeliveryQueue(this.destination, queueOptionsOf(options), this.warnings);
    this.flushOnContextEnd = options.flushOnContextEnd ?? true;
    this.contextFlushTimeoutMillis = checkNonNegative(
      'contextFlushTimeoutMillis',
      options.contextFlushTimeoutMillis ?? 10_000,
    );
    this.shutdownTimeoutMillis = checkNonNegative(
      'shutdownTimeoutMillis',
      options.shutdownTimeoutMillis ?? 30_000,
    );
    this.spanProcessor = new LightningSpanProcessor(this, this.queue, this.warnings, () =>
      this.closeExport(),
    );

    const appProvider =
      options.tracerProvider ?? (options.useGlobalTracerProvider ? globalSdkProvider() : undefined);
    if (appProvider) {
      this.ownProvider = null;
      this.provider = unwrapProvider(appProvider);
      addSpanProcessor(this.provider, this.spanProcessor);
    } else {
      this.ownProvider = new TracerProvider({
        resource: defaultResource().merge(
          resourceFromAttributes({
            'service.name': options.serviceName ?? 'arclight-agent',
            ...options.resourceAttributes,
          }),
        ),
        spanProcessors: [this.spanProcessor],
      });
      this.provider = this.ownProvider;
      if (options.registerGlobal) trace.setGlobalTracerProvider(this.ownProvider);
    }
    if ((options.installContextManager ?? true) && !ensureContextManager()) {
      this.warnings.warn(
        'context',
        'no working OpenTelemetry context manager could be installed; nested spans will have no parent ids',
      );
    }
    if ((options.activate ?? true) && getActiveTracer() === null) setActiveTracer(this);
  }

  /**
   * The provider spans are created with (the application's, or the tracer's own) — hand it to
   * instrumentations, e.g. `instrumentOpenAI(OpenAI, { tracerProvider: tracer.tracerProvider })`.
   */
  get tracerProvider(): ApiTracerProvider {
    return this.provider as ApiTracerProvider;
  }

  /** A tracer of {@link tracerProvider}, for instrumentations and your own spans. */
  getTracer(name: string = DEFAULT_TRACER_NAME, version?: string): Tracer {
    return tracerOf(this.provider, name, version);
  }

  /**
   * Switches to an application's provider. Unless `processorAdded` (you built it with
   * `spanProcessors: [tracer.spanProcessor]`), the span processor is added to it.
   */
  useTracerProvider(
    provider: TracerProviderLike,
    options: { processorAdded?: boolean } = {},
  ): void {
    const target = unwrapProvider(provider);
    if (!options.processorAdded) addSpanProcessor(target, this.spanProcessor);
    this.provider = target;
  }

  /** Export counters: `exported`, `dropped`, `failedExports`, `retries`, `pending`. */
  get stats(): DeliveryStats {
    return this.queue.stats;
  }

  /**
   * Runs `fn` as one rollout attempt: every span started inside it (across awaits, timers and concurrent
   * rollouts) belongs to `rolloutId`/`attemptId`. Resolves with `fn`'s value (or rejects with its error) after
   * that attempt's finished spans have been written or dropped — waiting at most `contextFlushTimeoutMillis`.
   * Without ids, spans are only kept for {@link getLastTrace}.
   */
  async traceContext<T>(ids: TraceContextIds, fn: () => T | Promise<T>): Promise<T> {
    const rolloutId = ids?.rolloutId ?? null;
    const attemptId = ids?.attemptId ?? null;
    if ((rolloutId === null) !== (attemptId === null)) {
      throw new ValidationError(
        `traceContext: rolloutId and attemptId must be both given or both omitted (got rolloutId=${rolloutId}, attemptId=${attemptId})`,
      );
    }
    for (const [field, value] of [
      ['rolloutId', rolloutId],
      ['attemptId', attemptId],
    ] as const) {
      if (value !== null && (typeof value !== 'string' || value === '')) {
        throw new ValidationError(`traceContext: ${field} must be a non-empty string`);
      }
    }
    const scope = new TraceScope(
      this,
      rolloutId !== null && attemptId !== null ? { rolloutId, attemptId } : null,
    );
    try {
      return await runInScope(scope, fn);
    } finally {
      await this.finishScope(scope);
    }
  }

  /** Spans of the most recently completed {@link traceContext}, as stored (or converted locally). */
  getLastTrace(): Span[] {
    return [...this.lastTrace];
  }

  /**
   * Writes everything queued. Resolves `true` once done, `false` if `timeoutMs` (default 30 s) passed first.
   */
  flush(timeoutMs = 30_000): Promise<boolean> {
    return this.queue.flush(timeoutMs);
  }

  /**
   * Flushes (bounded by `shutdownTimeoutMillis`), drops what is left, stops accepting spans and shuts the
   * tracer's own provider down. An application's provider is left running.
   */
  shutdown(): Promise<void> {
    this.shutDown ??= (async () => {
      await this.closeExport();
      if (this.ownProvider) await this.ownProvider.shutdown();
    })();
    return this.shutDown;
  }

  createSpan(
    name: string,
    attributes: Attributes,
    options: CreateSpanOptions = {},
  ): SpanCoreFields {
    return createInstantSpan(this.getTracer(EMITTER_SCOPE), name, attributes, options);
  }

  runInSpan<T>(name: string, attributes: Attributes, body: (recording: SpanRecording) => T): T {
    return runInActiveSpan(this.getTracer(EMITTER_SCOPE), name, attributes, body);
  }

  private async finishScope(scope: TraceScope): Promise<void> {
    if (scope.attribution && this.flushOnContextEnd && scope.pendingCount > 0) {
      this.queue.kick();
      const settled = scope.whenSettled().then(() => true);
      const done = await raceTimeout(settled, this.contextFlushTimeoutMillis, false, true);
      if (!done) {
        this.warnings.warn(
          'context-timeout',
          `rollout ${scope.attribution.rolloutId}: ${scope.pendingCount} span(s) still being written after ` +
            `contextFlushTimeoutMillis=${this.contextFlushTimeoutMillis}; continuing without waiting`,
        );
      }
    }
    warnIfUntracedLlmRequests(scope);
    this.lastTrace = snapshot(scope);
  }

  private closeExport(): Promise<void> {
    this.exportClosed ??= (async () => {
      this.spanProcessor.close();
      await this.queue.shutdown(this.shutdownTimeoutMillis);
      clearActiveTracer(this);
    })();
    return this.exportClosed;
  }
}

/** The scope's finished spans: as stored when the destination reported them, else converted with local ids. */
function snapshot(scope: TraceScope): Span[] {
  const rolloutId = scope.attribution?.rolloutId ?? DUMMY_ROLLOUT_ID;
  const attemptId = scope.attribution?.attemptId ?? DUMMY_ATTEMPT_ID;
  return scope.records.map(
    (record, i) => record.stored ?? spanFromOtel(record.readable, rolloutId, attemptId, i + 1),
  );
}
