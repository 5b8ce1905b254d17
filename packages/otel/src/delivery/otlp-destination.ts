import { LightningResourceAttributes } from '@arclight/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpanLike } from '../otel-types.js';
import type { RolloutAttribution } from '../tracer/trace-scope.js';
import type { DeliveryItem, DeliveryOutcome, SpanDestination } from './destination.js';

const PROTOBUF = 'application/x-protobuf';

type SerializerSpan = Parameters<typeof ProtobufTraceSerializer.serializeRequest>[0][number];
type ResourceLike = ReadableSpanLike['resource'];

export interface OtlpDestinationOptions {
  /** Extra request headers (e.g. authentication for a proxy in front of the store). */
  headers?: Record<string, string>;
  /** The `fetch` to use; defaults to the global one. */
  fetch?: typeof fetch;
}

/**
 * The traces endpoint for a store address: `http://host:4747` → `http://host:4747/v1/traces`; an address that
 * already ends in `/v1/traces` is used as is.
 */
export function otlpTracesUrl(address: string): string {
  const trimmed = address.replace(/\/+$/, '');
  return trimmed.endsWith('/v1/traces') ? trimmed : `${trimmed}/v1/traces`;
}

/**
 * Sends spans to a store's OTLP/HTTP endpoint (`POST /v1/traces`, binary protobuf) — Arclight's server or
 * upstream's Python `agl store`. As upstream's `LightningStoreOTLPExporter` does, the rollout and attempt ids
 * travel as resource attributes (`agentlightning.rollout_id` / `agentlightning.attempt_id`): a batch that
 * mixes rollouts becomes one `ResourceSpans` per rollout/attempt. The server allocates sequence ids.
 */
export class OtlpSpanDestination implements SpanDestination {
  readonly kind = 'otlp';
  readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly fetchFn: typeof fetch;

  constructor(endpoint: string, options: OtlpDestinationOptions = {}) {
    this.url = otlpTracesUrl(endpoint);
    this.headers = { ...options.headers, 'Content-Type': PROTOBUF };
    this.fetchFn = options.fetch ?? fetch;
  }

  async write(items: DeliveryItem[], signal: AbortSignal): Promise<DeliveryOutcome[]> {
    try {
      const body = encodeOtlpRequest(items);
      const response = await this.fetchFn(this.url, {
        method: 'POST',
        headers: this.headers,
        body,
        signal,
      });
      const payload = new Uint8Array(await response.arrayBuffer());
      if (response.ok) return [{ ok: true, items, rejected: rejectedSpans(payload) }];
      const status = response.status;
      const error = new Error(`POST ${this.url} answered HTTP ${status}`);
      const retryable = status === 408 || status === 429 || status >= 500;
      return [{ ok: false, items, error, retryable }];
    } catch (error) {
      return [{ ok: false, items, error, retryable: true }];
    }
  }
}

/**
 * Encodes items as an `ExportTraceServiceRequest`, each span's resource extended with its rollout/attempt
 * ids. Spans sharing a resource and attribution share one `ResourceSpans`.
 */
export function encodeOtlpRequest(items: readonly DeliveryItem[]): Uint8Array {
  const resources = new Map<ResourceLike, Map<string, ResourceLike>>();
  const attributed = (resource: ResourceLike, { rolloutId, attemptId }: RolloutAttribution) => {
    let byAttempt = resources.get(resource);
    if (!byAttempt) {
      byAttempt = new Map();
      resources.set(resource, byAttempt);
    }
    const key = `${rolloutId}\u0000${attemptId}`;
    let merged = byAttempt.get(key);
    if (!merged) {
      merged = {
        attributes: {
          ...resource.attributes,
          [LightningResourceAttributes.ROLLOUT_ID]: rolloutId,
          [LightningResourceAttributes.ATTEMPT_ID]: attemptId,
        },
        schemaUrl: resource.schemaUrl,
      };
      byAttempt.set(key, merged);
    }
    return merged;
  };
  const spans = items.map((item) =>
    serializerSpan(item.readable, attributed(item.readable.resource, item.attribution)),
  );
  const bytes = ProtobufTraceSerializer.serializeRequest(spans);
  if (!bytes) throw new Error('the OTLP serializer produced no bytes');
  return bytes;
}

/** A view of an SDK span (of any SDK version) with a replaced resource, as the 3.x serializer reads it. */
function serializerSpan(span: ReadableSpanLike, resource: ResourceLike): SerializerSpan {
  const context = span.spanContext();
  const parent =
    span.parentSpanContext ??
    (span.parentSpanId
      ? { traceId: context.traceId, spanId: span.parentSpanId, traceFlags: 1, isRemote: false }
      : undefined);
  const view = {
    name: span.name,
    kind: span.kind ?? 0,
    spanContext: () => context,
    parentSpanContext: parent,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status,
    attributes: span.attributes,
    links: span.links,
    events: span.events,
    resource,
    instrumentationScope: span.instrumentationScope ??
      span.instrumentationLibrary ?? { name: 'unknown' },
    droppedAttributesCount: span.droppedAttributesCount ?? 0,
    droppedEventsCount: span.droppedEventsCount ?? 0,
    droppedLinksCount: span.droppedLinksCount ?? 0,
  };
  return view as unknown as SerializerSpan;
}

function rejectedSpans(payload: Uint8Array): number {
  if (payload.length === 0) return 0;
  try {
    const response = ProtobufTraceSerializer.deserializeResponse(payload);
    return Number(response.partialSuccess?.rejectedSpans ?? 0);
  } catch {
    return 0;
  }
}
