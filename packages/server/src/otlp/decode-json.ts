import { DEFAULT_LIMITS, LimitError, type RequestLimits } from '../http/limits.js';
import {
  type OtlpAttributes,
  OtlpDecodeError,
  type OtlpJsonValue,
  type OtlpResourceSpans,
  type OtlpSpan,
} from './model.js';
import { bytesToHex, doubleToJson, idHex, int64ToJson, isHex, setOwn, toBigInt } from './values.js';

type Obj = Record<string, unknown>;

const STATUS_CODE_NAMES: Record<string, number> = {
  STATUS_CODE_UNSET: 0,
  STATUS_CODE_OK: 1,
  STATUS_CODE_ERROR: 2,
};

const snake = (camel: string): string => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Reads a field by its OTLP/JSON lowerCamelCase name, or its proto snake_case name. */
function get(obj: Obj, camel: string): unknown {
  const value = obj[camel];
  return value === undefined ? obj[snake(camel)] : value;
}

function fail(path: string, problem: string): never {
  throw new OtlpDecodeError(`Unable to parse OTLP/JSON traces payload: ${path}: ${problem}`);
}

function object(value: unknown, path: string): Obj {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) fail(path, 'expected an object');
  return value as Obj;
}

function array(value: unknown, path: string): Obj[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail(path, 'expected an array');
  return value.map((item, i) => object(item, `${path}[${i}]`));
}

function string(value: unknown, path: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') fail(path, 'expected a string');
  return value;
}

function int64(value: unknown, path: string): bigint {
  const n = toBigInt(value);
  if (n === undefined) fail(path, 'expected an integer or a decimal string');
  return n;
}

/** OTLP/JSON ids are hex; base64 (the generic protobuf JSON mapping) is accepted as a fallback. */
function id(value: unknown, width: number, path: string): string {
  const text = string(value, path);
  if (isHex(text) && text.length <= width) return idHex(text, width);
  const decoded = Buffer.from(text, 'base64');
  if (decoded.length > 0 && decoded.length * 2 <= width && decoded.toString('base64') === text) {
    return idHex(bytesToHex(decoded), width);
  }
  return fail(path, `expected a hex id of at most ${width} characters`);
}

/**
 * Decodes an OTLP/JSON `ExportTraceServiceRequest` (already parsed from JSON), enforcing `limits` (spans per
 * request, attributes per span, value sizes, `arrayValue`/`kvlistValue` nesting) as it goes.
 */
export function decodeJsonTraces(
  body: unknown,
  limits: RequestLimits = { ...DEFAULT_LIMITS, maxDecompressedBytes: Number.MAX_SAFE_INTEGER },
): OtlpResourceSpans[] {
  const request = object(body, 'request');
  let spans = 0;
  return withLimits(limits, () =>
    array(get(request, 'resourceSpans'), 'resourceSpans').map((resourceSpans, r) => {
      const path = `resourceSpans[${r}]`;
      const resource = object(get(resourceSpans, 'resource'), `${path}.resource`);
      return {
        resourceAttributes: attributes(get(resource, 'attributes'), `${path}.resource.attributes`),
        schemaUrl: string(get(resourceSpans, 'schemaUrl'), `${path}.schemaUrl`),
        spans: array(get(resourceSpans, 'scopeSpans'), `${path}.scopeSpans`).flatMap((scope, s) =>
          array(get(scope, 'spans'), `${path}.scopeSpans[${s}].spans`).map((sp, i) => {
            spans++;
            if (spans > limits.maxSpansPerRequest) {
              throw new LimitError(
                413,
                'maxSpansPerRequest',
                limits.maxSpansPerRequest,
                'Number of spans in the request',
              );
            }
            return span(sp, `${path}.scopeSpans[${s}].spans[${i}]`);
          }),
        ),
      };
    }),
  );
}

/** The limits of the request being decoded (decoding is synchronous, so one slot suffices). */
let active: RequestLimits = { ...DEFAULT_LIMITS, maxDecompressedBytes: Number.MAX_SAFE_INTEGER };

function withLimits<T>(limits: RequestLimits, fn: () => T): T {
  const previous = active;
  active = limits;
  try {
    return fn();
  } finally {
    active = previous;
  }
}

function requiredId(value: unknown, width: number, path: string): string {
  if (value === undefined || value === null || value === '') fail(path, 'is missing or empty');
  return id(value, width, path);
}

function span(obj: Obj, path: string): OtlpSpan {
  const status = object(get(obj, 'status'), `${path}.status`);
  const parent = string(get(obj, 'parentSpanId'), `${path}.parentSpanId`);
  return {
    traceId: requiredId(get(obj, 'traceId'), 32, `${path}.traceId`),
    spanId: requiredId(get(obj, 'spanId'), 16, `${path}.spanId`),
    parentSpanId: parent === '' ? null : id(parent, 16, `${path}.parentSpanId`),
    name: string(get(obj, 'name'), `${path}.name`),
    statusCode: statusCode(get(status, 'code'), `${path}.status.code`),
    statusMessage: string(get(status, 'message'), `${path}.status.message`),
    startTimeUnixNano: int64(get(obj, 'startTimeUnixNano'), `${path}.startTimeUnixNano`),
    endTimeUnixNano: int64(get(obj, 'endTimeUnixNano'), `${path}.endTimeUnixNano`),
    attributes: attributes(get(obj, 'attributes'), `${path}.attributes`),
    events: array(get(obj, 'events'), `${path}.events`).map((event, i) => ({
      name: string(get(event, 'name'), `${path}.events[${i}].name`),
      timeUnixNano: int64(get(event, 'timeUnixNano'), `${path}.events[${i}].timeUnixNano`),
      attributes: attributes(get(event, 'attributes'), `${path}.events[${i}].attributes`),
    })),
    links: array(get(obj, 'links'), `${path}.links`).map((link, i) => ({
      traceId: id(get(link, 'traceId'), 32, `${path}.links[${i}].traceId`),
      spanId: id(get(link, 'spanId'), 16, `${path}.links[${i}].spanId`),
      attributes: attributes(get(link, 'attributes'), `${path}.links[${i}].attributes`),
    })),
  };
}

function statusCode(value: unknown, path: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && value in STATUS_CODE_NAMES) return STATUS_CODE_NAMES[value]!;
  return fail(path, 'expected a status code');
}

function attributes(value: unknown, path: string, depth = 1): OtlpAttributes {
  const out: OtlpAttributes = {};
  const list = array(value, path);
  if (list.length > active.maxAttributesPerSpan) {
    throw new LimitError(
      413,
      'maxAttributesPerSpan',
      active.maxAttributesPerSpan,
      `Number of attributes at ${path}`,
    );
  }
  list.forEach((kv, i) => {
    const key = sized(string(get(kv, 'key'), `${path}[${i}].key`), `${path}[${i}].key`);
    setOwn(out, key, anyValue(get(kv, 'value'), `${path}[${i}].value`, depth));
  });
  return out;
}

function sized(text: string, path: string): string {
  if (text.length > active.maxAttributeValueBytes) {
    throw new LimitError(
      413,
      'maxAttributeValueBytes',
      active.maxAttributeValueBytes,
      `Size of ${path} (${text.length} characters)`,
    );
  }
  return text;
}

function anyValue(value: unknown, path: string, depth: number): OtlpJsonValue {
  if (depth > active.maxDepth) {
    throw new LimitError(400, 'maxDepth', active.maxDepth, `Nesting depth at ${path}`);
  }
  const obj = object(value, path);
  const has = (camel: string) => get(obj, camel) !== undefined && get(obj, camel) !== null;
  if (has('stringValue'))
    return sized(string(get(obj, 'stringValue'), `${path}.stringValue`), `${path}.stringValue`);
  if (has('boolValue')) {
    const bool = get(obj, 'boolValue');
    return typeof bool === 'boolean' ? bool : fail(`${path}.boolValue`, 'expected a boolean');
  }
  if (has('intValue')) return int64ToJson(int64(get(obj, 'intValue'), `${path}.intValue`));
  if (has('doubleValue')) return double(get(obj, 'doubleValue'), `${path}.doubleValue`);
  if (has('arrayValue')) {
    const values = get(object(get(obj, 'arrayValue'), `${path}.arrayValue`), 'values');
    if (values == null) return [];
    if (!Array.isArray(values)) return fail(`${path}.arrayValue.values`, 'expected an array');
    return values.map((item, i) => anyValue(item, `${path}.arrayValue.values[${i}]`, depth + 1));
  }
  if (has('kvlistValue')) {
    const kvlist = object(get(obj, 'kvlistValue'), `${path}.kvlistValue`);
    return attributes(get(kvlist, 'values'), `${path}.kvlistValue.values`, depth + 1);
  }
  if (has('bytesValue')) {
    const text = sized(string(get(obj, 'bytesValue'), `${path}.bytesValue`), `${path}.bytesValue`);
    return Buffer.from(text, 'base64').toString('hex');
  }
  return null;
}

function double(value: unknown, path: string): OtlpJsonValue {
  if (typeof value === 'number') return doubleToJson(value);
  if (value === 'NaN' || value === 'Infinity' || value === '-Infinity') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value);
  }
  return fail(path, 'expected a number');
}
