import type { Attributes, LightningStore } from '@arclight/core';
import type { DeliveryQueueOptions } from '../delivery/delivery-queue.js';
import type { SpanDestination } from '../delivery/destination.js';
import type { TracerLogger } from '../delivery/warnings.js';
import type { TracerProviderLike } from './provider-join.js';

/** A store that can say where its OTLP endpoint is (`LightningStoreClient` from `@arclight/client`). */
export interface OtlpCapableStore extends LightningStore {
  otlpTracesEndpoint(): string;
  /** Headers OTLP requests need (e.g. the client's `Authorization`), when the store offers them. */
  otlpTracesHeaders?(): Record<string, string>;
}

export interface LightningTracerOptions extends Partial<DeliveryQueueOptions> {
  /**
   * Where spans go. In-process stores (`capabilities.otlp_traces === false`) get `addManySpans`; remote stores
   * (`otlp_traces === true` with `otlpTracesEndpoint()`, e.g. `LightningStoreClient`) get OTLP/HTTP protobuf.
   * Without a store (and without `otlpEndpoint`/`destination`), spans are kept in memory only.
   */
  store?: LightningStore | null;
  /**
   * Send spans over OTLP/HTTP to this address (a store root such as `http://localhost:4747`, or a full
   * `…/v1/traces` URL) — e.g. upstream's Python `agl store`. Takes precedence over `store`'s own path.
   */
  otlpEndpoint?: string;
  /**
   * Extra headers of OTLP requests, e.g. `{ Authorization: 'Bearer <token>' }` for an Arclight server started
   * with a token (merged over the store's `otlpTracesHeaders()`, if it has that method).
   */
  otlpHeaders?: Record<string, string>;
  /** A custom destination (e.g. an `InMemorySpanDestination`); takes precedence over `store` and `otlpEndpoint`. */
  destination?: SpanDestination;
  /**
   * The application's tracer provider (SDK 1.x, 2.x or 3.x): Arclight's span processor is added to it and
   * the application's own processors/exporters keep receiving every span.
   */
  tracerProvider?: TracerProviderLike;
  /** Join the provider registered globally with `@opentelemetry/api` (ignored when `tracerProvider` is set). */
  useGlobalTracerProvider?: boolean;
  /** Register the tracer's own provider globally (`trace.setGlobalTracerProvider`). Default false. */
  registerGlobal?: boolean;
  /** `service.name` of the tracer's own provider. Default `"arclight-agent"`. */
  serviceName?: string;
  /** Further resource attributes of the tracer's own provider. */
  resourceAttributes?: Attributes;
  /**
   * Install an AsyncLocalStorage context manager when OpenTelemetry has none, so nested spans get parent ids.
   * Default true.
   */
  installContextManager?: boolean;
  /** Become the process-wide active tracer (used by emitters outside any traceContext). Default true. */
  activate?: boolean;
  /** Wait, at the end of each traceContext, until its spans are written or dropped. Default true. */
  flushOnContextEnd?: boolean;
  /** Upper bound of that wait, in milliseconds. Default 10 000. */
  contextFlushTimeoutMillis?: number;
  /** Upper bound of the flush done by `shutdown()`, in milliseconds. Default 30 000. */
  shutdownTimeoutMillis?: number;
  /** Receives warnings (rate-limited). Default: `console.warn`; `null` silences them. */
  logger?: TracerLogger | null;
  /** Minimum interval between two warnings of one kind, in milliseconds. Default 10 000. */
  warningIntervalMillis?: number;
}

/** Whether a store wants spans over OTLP and can say where (upstream's `otlp_traces` capability). */
export function isOtlpCapableStore(store: LightningStore): store is OtlpCapableStore {
  return (
    store.capabilities?.otlp_traces === true &&
    typeof (store as Partial<OtlpCapableStore>).otlpTracesEndpoint === 'function'
  );
}
