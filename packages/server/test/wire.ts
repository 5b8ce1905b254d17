/**
 * A hand-rolled protobuf wire encoder for OTLP trace requests, independent of the server's decoder, so tests can
 * build hostile payloads (missing ids, deep nesting, millions of empty spans) that no SDK would produce.
 */

export function varint(value: number): Buffer {
  const bytes: number[] = [];
  let v = value;
  while (v >= 0x80) {
    bytes.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

/** A length-delimited field. */
export const len = (field: number, payload: Buffer): Buffer =>
  Buffer.concat([varint(field * 8 + 2), varint(payload.length), payload]);

export const str = (field: number, text: string): Buffer => len(field, Buffer.from(text, 'utf8'));

export const request = (...resourceSpans: Buffer[]): Buffer =>
  Buffer.concat(resourceSpans.map((rs) => len(1, rs)));

/** ResourceSpans with resource attributes and one ScopeSpans holding `spans`. */
export function resourceSpans(resourceAttributes: Buffer[], spans: Buffer[]): Buffer {
  const resource = Buffer.concat(resourceAttributes.map((kv) => len(1, kv)));
  const scopeSpans = Buffer.concat(spans.map((s) => len(2, s)));
  return Buffer.concat([len(1, resource), len(2, scopeSpans)]);
}

export const TRACE_ID = Buffer.alloc(16, 0xab);
export const SPAN_ID = (n: number): Buffer => {
  const id = Buffer.alloc(8);
  id.writeUInt32BE(n + 1, 4);
  return id;
};

export interface SpanParts {
  traceId?: Buffer | null;
  spanId?: Buffer | null;
  name?: string;
  attributes?: Buffer[];
}

export function span({
  traceId = TRACE_ID,
  spanId = SPAN_ID(0),
  name = 's',
  attributes = [],
}: SpanParts): Buffer {
  return Buffer.concat([
    traceId ? len(1, traceId) : Buffer.alloc(0),
    spanId ? len(2, spanId) : Buffer.alloc(0),
    str(5, name),
    ...attributes.map((kv) => len(9, kv)),
  ]);
}

export const keyValue = (key: string, anyValue: Buffer): Buffer =>
  Buffer.concat([str(1, key), len(2, anyValue)]);
export const stringValue = (text: string): Buffer => str(1, text);
export const arrayValue = (...values: Buffer[]): Buffer =>
  len(5, Buffer.concat(values.map((v) => len(1, v))));
export const kvlistValue = (...kvs: Buffer[]): Buffer =>
  len(6, Buffer.concat(kvs.map((kv) => len(1, kv))));

/** An AnyValue nesting `depth` arrays (kind 'array') or key-value lists (kind 'kvlist'). */
export function nestedValue(depth: number, kind: 'array' | 'kvlist'): Buffer {
  let value = stringValue('leaf');
  for (let i = 0; i < depth; i++) {
    value = kind === 'array' ? arrayValue(value) : kvlistValue(keyValue('k', value));
  }
  return value;
}

/** The same nesting in OTLP/JSON. */
export function nestedJsonValue(depth: number, kind: 'array' | 'kvlist'): unknown {
  let value: unknown = { stringValue: 'leaf' };
  for (let i = 0; i < depth; i++) {
    value =
      kind === 'array'
        ? { arrayValue: { values: [value] } }
        : { kvlistValue: { values: [{ key: 'k', value }] } };
  }
  return value;
}

/** Attributes attributing spans to a rollout/attempt, as protobuf KeyValues. */
export const attribution = (rolloutId: string, attemptId: string): Buffer[] => [
  keyValue('agentlightning.rollout_id', stringValue(rolloutId)),
  keyValue('agentlightning.attempt_id', stringValue(attemptId)),
];

/** One request with `count` copies of the span `spanBody` (the compression-bomb payload); built by filling. */
export function repeatedSpansRequest(count: number, spanBody: Buffer): Buffer {
  const entry = len(2, spanBody); // ScopeSpans field 2 (span)
  const scopeSpans = Buffer.alloc(count * entry.length, entry);
  return len(1, len(2, scopeSpans));
}

/** `count` empty spans (2 bytes each on the wire): the probe's 61 KB → 62 MB bomb. */
export const emptySpansRequest = (count: number): Buffer =>
  repeatedSpansRequest(count, Buffer.alloc(0));
