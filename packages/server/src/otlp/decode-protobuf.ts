import protobuf from 'protobufjs';
import {
  type OtlpAttributes,
  OtlpDecodeError,
  type OtlpEvent,
  type OtlpJsonValue,
  type OtlpLink,
  type OtlpResourceSpans,
  type OtlpSpan,
} from './model.js';
import { otlpTypes } from './proto-schema.js';
import { bytesToHex, doubleToJson, idHex, int64ToJson, setOwn, toBigInt } from './values.js';

type Message = Record<string, unknown>;

const EMPTY = new Uint8Array(0);

const list = (message: Message, key: string): Message[] =>
  (message[key] as Message[] | undefined) ?? [];
const str = (message: Message, key: string): string => (message[key] as string | undefined) ?? '';
const bytes = (message: Message, key: string): Uint8Array =>
  (message[key] as Uint8Array | undefined) ?? EMPTY;
const own = (message: Message, key: string): boolean =>
  Object.hasOwn(message, key) && message[key] != null;

/** Messages around the first `AnyValue` (request, ResourceSpans, ScopeSpans, Span, KeyValue) plus slack. */
const ENVELOPE_MESSAGES = 8;

/**
 * Decodes a binary `ExportTraceServiceRequest`. `maxDepth` (attribute value nesting, each level being up to three
 * messages on the wire: AnyValue, KeyValueList, KeyValue) raises protobufjs' message recursion limit for this call when it needs more than its
 * default; the caller has bounded the actual depth beforehand (`scanProtobufTraces`).
 */
export function decodeProtobufTraces(body: Uint8Array, maxDepth = 0): OtlpResourceSpans[] {
  let request: Message;
  const reader = protobuf.Reader as unknown as { recursionLimit: number };
  const previousLimit = reader.recursionLimit;
  reader.recursionLimit = Math.max(previousLimit, 3 * maxDepth + ENVELOPE_MESSAGES);
  try {
    request = otlpTypes().request.decode(body) as unknown as Message;
  } catch (error) {
    throw new OtlpDecodeError(`Unable to parse OTLP traces payload: ${(error as Error).message}`);
  } finally {
    // Decoding is synchronous: no other decode can observe the raised limit.
    reader.recursionLimit = previousLimit;
  }
  return list(request, 'resource_spans').map((resourceSpans) => {
    const resource = (resourceSpans.resource as Message | undefined) ?? {};
    return {
      resourceAttributes: attributes(list(resource, 'attributes')),
      schemaUrl: str(resourceSpans, 'schema_url'),
      spans: list(resourceSpans, 'scope_spans').flatMap((scope) => list(scope, 'spans').map(span)),
    };
  });
}

function span(message: Message): OtlpSpan {
  const status = (message.status as Message | undefined) ?? {};
  const parent = bytes(message, 'parent_span_id');
  return {
    traceId: idHex(bytesToHex(bytes(message, 'trace_id')), 32),
    spanId: idHex(bytesToHex(bytes(message, 'span_id')), 16),
    parentSpanId: parent.length > 0 ? idHex(bytesToHex(parent), 16) : null,
    name: str(message, 'name'),
    statusCode: (status.code as number | undefined) ?? 0,
    statusMessage: str(status, 'message'),
    startTimeUnixNano: toBigInt(message.start_time_unix_nano) ?? 0n,
    endTimeUnixNano: toBigInt(message.end_time_unix_nano) ?? 0n,
    attributes: attributes(list(message, 'attributes')),
    events: list(message, 'events').map(
      (event): OtlpEvent => ({
        name: str(event, 'name'),
        timeUnixNano: toBigInt(event.time_unix_nano) ?? 0n,
        attributes: attributes(list(event, 'attributes')),
      }),
    ),
    links: list(message, 'links').map(
      (link): OtlpLink => ({
        traceId: idHex(bytesToHex(bytes(link, 'trace_id')), 32),
        spanId: idHex(bytesToHex(bytes(link, 'span_id')), 16),
        attributes: attributes(list(link, 'attributes')),
      }),
    ),
  };
}

function attributes(keyValues: Message[]): OtlpAttributes {
  const out: OtlpAttributes = {};
  for (const kv of keyValues)
    setOwn(out, str(kv, 'key'), anyValue(kv.value as Message | undefined));
  return out;
}

function anyValue(value: Message | undefined): OtlpJsonValue {
  if (!value) return null;
  if (own(value, 'string_value')) return value.string_value as string;
  if (own(value, 'bool_value')) return value.bool_value as boolean;
  if (own(value, 'int_value')) return int64ToJson(toBigInt(value.int_value) ?? 0n);
  if (own(value, 'double_value')) return doubleToJson(value.double_value as number);
  if (own(value, 'array_value')) {
    return list(value.array_value as Message, 'values').map((item) => anyValue(item));
  }
  if (own(value, 'kvlist_value')) return attributes(list(value.kvlist_value as Message, 'values'));
  if (own(value, 'bytes_value')) return bytesToHex(value.bytes_value as Uint8Array);
  return null;
}
