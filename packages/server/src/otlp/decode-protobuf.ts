import { DEFAULT_LIMITS, LimitError, type RequestLimits } from '../http/limits.js';
import {
  type OtlpAttributes,
  OtlpDecodeError,
  type OtlpEvent,
  type OtlpJsonValue,
  type OtlpLink,
  type OtlpResourceSpans,
  type OtlpSpan,
} from './model.js';
import { doubleToJson, idHex, int64ToJson, setOwn } from './values.js';

/**
 * Decodes a binary `ExportTraceServiceRequest` in one pass over the wire bytes, straight into the decoded
 * model (no intermediate protobuf message objects), checking `limits` as it goes: spans per request,
 * attributes per span/event/link/resource/scope, attribute key and value sizes, `AnyValue` nesting (so the
 * recursion is bounded) and values per request. What it allocates is therefore bounded by the limits, and a
 * span without a `trace_id` or `span_id` is refused as soon as its end is reached.
 *
 * Field numbers are those of opentelemetry-proto's trace/v1, common/v1 and resource/v1 messages. Unknown fields
 * are skipped, and so is a field whose wire type is not its declared one (as protobuf parsers do); invalid
 * UTF-8 in a string, a truncated field or a group wire type is a decode error.
 */
export function decodeProtobufTraces(
  body: Uint8Array,
  limits: RequestLimits = { ...DEFAULT_LIMITS, maxDecompressedBytes: Number.MAX_SAFE_INTEGER },
): OtlpResourceSpans[] {
  const buf = Buffer.isBuffer(body)
    ? body
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return new WireDecoder(buf, limits).request();
}

const VARINT = 0;
const FIXED64 = 1;
const LEN = 2;
const FIXED32 = 5;

const TRACE_ID_BYTES = 16;
const SPAN_ID_BYTES = 8;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Buffer's own slice decoders (what `toString(encoding, start, end)` ends up calling, minus its dispatch). */
interface SliceDecoders {
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
  hexSlice(start: number, end: number): string;
}

/**
 * Short ASCII strings (attribute keys, resource and scope values, span names, repeated values) are shared
 * through a fixed-size table of recently decoded strings, found by a hash of their bytes: a hit costs one JS
 * pass over the bytes and no native call or allocation, and a reused key is already internalized when it is
 * stored as a property. Anything longer or non-ASCII goes through Buffer's UTF-8 decoder.
 */
const SHARED_MAX_BYTES = 64;
const SHARED_SLOTS = 4096;
const sharedStrings: string[] = new Array(SHARED_SLOTS).fill('');
/** Each slot's bytes (compared instead of the string's characters) and their count. */
const sharedBytes = new Uint8Array(SHARED_SLOTS * SHARED_MAX_BYTES);
const sharedLengths = new Uint8Array(SHARED_SLOTS);

function fail(problem: string): never {
  throw new OtlpDecodeError(`Unable to parse OTLP traces payload: ${problem}`);
}

class WireDecoder {
  private pos = 0;
  private spans = 0;
  private values = 0;
  /** The tag just read: field number and wire type. */
  private field = 0;
  private wire = 0;
  private readonly view: DataView;
  private readonly slices: SliceDecoders;

  constructor(
    private readonly buf: Buffer,
    private readonly limits: RequestLimits,
  ) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.slices = buf as unknown as SliceDecoders;
  }

  request(): OtlpResourceSpans[] {
    const out: OtlpResourceSpans[] = [];
    const end = this.buf.length;
    while (this.pos < end) {
      this.tag(end, 'request');
      if (this.field === 1 && this.wire === LEN) out.push(this.resourceSpans(this.length(end)));
      else this.skip(end, 'request');
    }
    return out;
  }

  // ------------------------------------------------------------------ messages

  private resourceSpans(end: number): OtlpResourceSpans {
    const result: OtlpResourceSpans = { resourceAttributes: {}, schemaUrl: '', spans: [] };
    let resourceAttributeCount = 0;
    while (this.pos < end) {
      this.tag(end, 'ResourceSpans');
      if (this.field === 1 && this.wire === LEN) {
        const resourceEnd = this.length(end);
        while (this.pos < resourceEnd) {
          this.tag(resourceEnd, 'Resource');
          if (this.field === 1 && this.wire === LEN) {
            resourceAttributeCount = this.countAttribute(resourceAttributeCount, -1, 'resource');
            this.keyValueInto(result.resourceAttributes, this.length(resourceEnd), 1);
          } else this.skip(resourceEnd, 'Resource');
        }
      } else if (this.field === 2 && this.wire === LEN) {
        this.scopeSpans(this.length(end), result.spans);
      } else if (this.field === 3 && this.wire === LEN) {
        result.schemaUrl = this.string(this.length(end));
      } else this.skip(end, 'ResourceSpans');
    }
    return result;
  }

  private scopeSpans(end: number, spans: OtlpSpan[]): void {
    while (this.pos < end) {
      this.tag(end, 'ScopeSpans');
      if (this.field === 2 && this.wire === LEN) spans.push(this.span(this.length(end)));
      else if (this.field === 1 && this.wire === LEN) this.scope(this.length(end));
      else this.skip(end, 'ScopeSpans');
    }
  }

  /** The instrumentation scope is not stored; its attributes are still held to the limits. */
  private scope(end: number): void {
    let count = 0;
    const ignored: OtlpAttributes = {};
    while (this.pos < end) {
      this.tag(end, 'scope');
      if (this.field === 3 && this.wire === LEN) {
        count = this.countAttribute(count, -1, 'scope');
        this.keyValueInto(ignored, this.length(end), 1);
      } else this.skip(end, 'scope');
    }
  }

  private span(end: number): OtlpSpan {
    const index = this.spans++;
    if (this.spans > this.limits.maxSpansPerRequest) {
      throw new LimitError(
        413,
        'maxSpansPerRequest',
        this.limits.maxSpansPerRequest,
        'Number of spans in the request',
      );
    }
    let traceId = '';
    let spanId = '';
    let parentSpanId = '';
    let name = '';
    let statusCode = 0;
    let statusMessage = '';
    let start = 0n;
    let finish = 0n;
    let attributeCount = 0;
    const attributes: OtlpAttributes = {};
    const events: OtlpEvent[] = [];
    const links: OtlpLink[] = [];
    while (this.pos < end) {
      this.tag(end, 'Span');
      const { field, wire } = this;
      if (field === 9 && wire === LEN) {
        attributeCount = this.countAttribute(attributeCount, index, '');
        this.keyValueInto(attributes, this.length(end), 1);
      } else if (field === 1 && wire === LEN) traceId = this.id(this.length(end));
      else if (field === 2 && wire === LEN) spanId = this.id(this.length(end));
      else if (field === 4 && wire === LEN) parentSpanId = this.id(this.length(end));
      else if (field === 5 && wire === LEN) name = this.string(this.length(end));
      else if (field === 7 && wire === FIXED64) start = this.fixed64(end);
      else if (field === 8 && wire === FIXED64) finish = this.fixed64(end);
      else if (field === 15 && wire === LEN) {
        const statusEnd = this.length(end);
        while (this.pos < statusEnd) {
          this.tag(statusEnd, 'Status');
          if (this.field === 2 && this.wire === LEN)
            statusMessage = this.string(this.length(statusEnd));
          else if (this.field === 3 && this.wire === VARINT) statusCode = this.int32(statusEnd);
          else this.skip(statusEnd, 'Status');
        }
      } else if (field === 11 && wire === LEN) events.push(this.event(this.length(end), index));
      else if (field === 13 && wire === LEN) links.push(this.link(this.length(end), index));
      else this.skip(end, 'Span');
    }
    checkId(traceId.length / 2, TRACE_ID_BYTES, index, 'trace_id');
    checkId(spanId.length / 2, SPAN_ID_BYTES, index, 'span_id');
    return {
      traceId: idHex(traceId, 32),
      spanId: idHex(spanId, 16),
      parentSpanId: parentSpanId === '' ? null : idHex(parentSpanId, 16),
      name,
      statusCode,
      statusMessage,
      startTimeUnixNano: start,
      endTimeUnixNano: finish,
      attributes,
      events,
      links,
    };
  }

  private event(end: number, index: number): OtlpEvent {
    const event: OtlpEvent = { name: '', timeUnixNano: 0n, attributes: {} };
    let count = 0;
    while (this.pos < end) {
      this.tag(end, 'Span.Event');
      if (this.field === 3 && this.wire === LEN) {
        count = this.countAttribute(count, index, ' event');
        this.keyValueInto(event.attributes, this.length(end), 1);
      } else if (this.field === 1 && this.wire === FIXED64) event.timeUnixNano = this.fixed64(end);
      else if (this.field === 2 && this.wire === LEN) event.name = this.string(this.length(end));
      else this.skip(end, 'Span.Event');
    }
    return event;
  }

  private link(end: number, index: number): OtlpLink {
    let traceId = '';
    let spanId = '';
    let count = 0;
    const attributes: OtlpAttributes = {};
    while (this.pos < end) {
      this.tag(end, 'Span.Link');
      if (this.field === 1 && this.wire === LEN) {
        traceId = this.id(this.length(end));
        if (traceId.length / 2 > TRACE_ID_BYTES) fail(`span #${index} link: trace_id is too long`);
      } else if (this.field === 2 && this.wire === LEN) {
        spanId = this.id(this.length(end));
        if (spanId.length / 2 > SPAN_ID_BYTES) fail(`span #${index} link: span_id is too long`);
      } else if (this.field === 4 && this.wire === LEN) {
        count = this.countAttribute(count, index, ' link');
        this.keyValueInto(attributes, this.length(end), 1);
      } else this.skip(end, 'Span.Link');
    }
    return { traceId: idHex(traceId, 32), spanId: idHex(spanId, 16), attributes };
  }

  /** A `KeyValue` ending at `end`, stored into `target` (a later duplicate key replaces an earlier one). */
  private keyValueInto(target: OtlpAttributes, end: number, depth: number): void {
    this.countValue();
    let key = '';
    let value: OtlpJsonValue = null;
    while (this.pos < end) {
      this.tag(end, 'KeyValue');
      if (this.field === 1 && this.wire === LEN) {
        const keyEnd = this.length(end);
        this.checkSize(keyEnd - this.pos, 'Attribute key');
        key = this.string(keyEnd);
      } else if (this.field === 2 && this.wire === LEN)
        value = this.anyValue(this.length(end), depth);
      else this.skip(end, 'KeyValue');
    }
    setOwn(target, key, value);
  }

  /** An `AnyValue` as JSON (upstream `_any_value_to_python`); an empty one is null, the last field set wins. */
  private anyValue(end: number, depth: number): OtlpJsonValue {
    if (depth > this.limits.maxDepth) {
      throw new LimitError(400, 'maxDepth', this.limits.maxDepth, 'Attribute value nesting depth');
    }
    let value: OtlpJsonValue = null;
    while (this.pos < end) {
      this.tag(end, 'AnyValue');
      const { field, wire } = this;
      if (field === 1 && wire === LEN) {
        const valueEnd = this.length(end);
        this.checkSize(valueEnd - this.pos, 'Attribute value');
        value = this.string(valueEnd);
      } else if (field === 3 && wire === VARINT) value = this.int64(end);
      else if (field === 4 && wire === FIXED64) {
        if (this.pos + 8 > end) fail('AnyValue: truncated field 4');
        value = doubleToJson(this.view.getFloat64(this.pos, true));
        this.pos += 8;
      } else if (field === 2 && wire === VARINT) value = this.varint(end, 'AnyValue') !== 0;
      else if (field === 5 && wire === LEN) {
        const listEnd = this.length(end);
        const items: OtlpJsonValue[] = [];
        while (this.pos < listEnd) {
          this.tag(listEnd, 'ArrayValue');
          if (this.field === 1 && this.wire === LEN) {
            this.countValue();
            items.push(this.anyValue(this.length(listEnd), depth + 1));
          } else this.skip(listEnd, 'ArrayValue');
        }
        value = items;
      } else if (field === 6 && wire === LEN) {
        const listEnd = this.length(end);
        const object: OtlpAttributes = {};
        while (this.pos < listEnd) {
          this.tag(listEnd, 'KeyValueList');
          if (this.field === 1 && this.wire === LEN) {
            this.keyValueInto(object, this.length(listEnd), depth + 1);
          } else this.skip(listEnd, 'KeyValueList');
        }
        value = object;
      } else if (field === 7 && wire === LEN) {
        const valueEnd = this.length(end);
        this.checkSize(valueEnd - this.pos, 'Attribute value');
        value = this.slices.hexSlice(this.pos, valueEnd);
        this.pos = valueEnd;
      } else this.skip(end, 'AnyValue');
    }
    return value;
  }

  // ------------------------------------------------------------------ limits

  /** Counts one attribute of span #`index` (plus `owner`), or of `owner` alone when `index` is -1. */
  private countAttribute(count: number, index: number, owner: string): number {
    if (count >= this.limits.maxAttributesPerSpan) {
      throw new LimitError(
        413,
        'maxAttributesPerSpan',
        this.limits.maxAttributesPerSpan,
        `Number of attributes of ${index < 0 ? owner : `span #${index}${owner}`}`,
      );
    }
    return count + 1;
  }

  private checkSize(bytes: number, what: string): void {
    if (bytes > this.limits.maxAttributeValueBytes) {
      throw new LimitError(
        413,
        'maxAttributeValueBytes',
        this.limits.maxAttributeValueBytes,
        `${what} size (${bytes} bytes)`,
      );
    }
  }

  private countValue(): void {
    this.values++;
    if (this.values > this.limits.maxValuesPerRequest) {
      throw new LimitError(
        413,
        'maxValuesPerRequest',
        this.limits.maxValuesPerRequest,
        'Number of attribute values in the request',
      );
    }
  }

  // ------------------------------------------------------------------ wire primitives

  /** Reads a tag into `field` / `wire`. */
  private tag(end: number, message: string): void {
    const tag = this.varint(end, message);
    this.field = Math.floor(tag / 8);
    this.wire = tag % 8;
    if (this.field === 0) fail(`${message}: invalid field number 0`);
  }

  /** Reads a length prefix; returns where the field ends (checked against the enclosing `end`). */
  private length(end: number): number {
    const length = this.varint(end, 'length');
    const fieldEnd = this.pos + length;
    if (fieldEnd > end) fail(`field ${this.field} runs past the end of its message`);
    return fieldEnd;
  }

  /** Skips a field this decoder does not read. */
  private skip(end: number, message: string): void {
    switch (this.wire) {
      case VARINT:
        this.varint(end, message);
        return;
      case FIXED64:
        this.pos += 8;
        break;
      case FIXED32:
        this.pos += 4;
        break;
      case LEN:
        this.pos = this.length(end);
        return;
      default:
        fail(`${message}: unsupported wire type ${this.wire} in field ${this.field}`);
    }
    if (this.pos > end) fail(`${message}: truncated field ${this.field}`);
  }

  /** A varint (at most 10 bytes) as a number: exact up to 2^53, which tags and lengths never reach. */
  private varint(end: number, message: string): number {
    const buf = this.buf;
    let pos = this.pos;
    if (pos < end) {
      const first = buf[pos]!;
      if (first < 0x80) {
        this.pos = pos + 1;
        return first;
      }
    }
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (pos >= end) fail(`${message}: truncated varint`);
      const byte = buf[pos++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) {
        this.pos = pos;
        return value;
      }
      scale *= 128;
    }
    return fail(`${message}: varint longer than 10 bytes`);
  }

  /** An enum / int32 varint (negative values are sign-extended to 10 bytes on the wire). */
  private int32(end: number): number {
    return this.varint(end, 'Status') | 0;
  }

  /** An int64 varint as JSON: a number when exactly representable, else its decimal string. */
  private int64(end: number): OtlpJsonValue {
    const start = this.pos;
    const value = this.varint(end, 'AnyValue');
    if (value <= Number.MAX_SAFE_INTEGER && this.pos - start < 8) return value;
    // Large or negative (two's complement over 10 bytes): re-read exactly as a 64-bit integer.
    let exact = 0n;
    let shift = 0n;
    for (let pos = start; pos < this.pos; pos++) {
      exact |= BigInt(this.buf[pos]! & 0x7f) << shift;
      shift += 7n;
    }
    return int64ToJson(BigInt.asIntN(64, exact));
  }

  private fixed64(end: number): bigint {
    if (this.pos + 8 > end) fail(`truncated field ${this.field}`);
    const value = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return value;
  }

  /** Lowercase hex of a bytes field (ids). */
  private id(end: number): string {
    const hex = this.slices.hexSlice(this.pos, end);
    this.pos = end;
    return hex;
  }

  /** A UTF-8 string field; invalid UTF-8 is a decode error (proto3 strings must be valid UTF-8). */
  private string(end: number): string {
    const start = this.pos;
    this.pos = end;
    if (start === end) return '';
    if (end - start <= SHARED_MAX_BYTES) {
      const shared = this.sharedAscii(start, end);
      if (shared !== undefined) return shared;
    }
    const text = this.slices.utf8Slice(start, end);
    // U+FFFD is either in the text itself or a replaced invalid sequence: only then is the strict check needed.
    if (text.includes('\uFFFD')) {
      try {
        strictUtf8.decode(this.buf.subarray(start, end));
      } catch {
        fail(`field ${this.field}: invalid UTF-8`);
      }
    }
    return text;
  }

  /** The bytes as a string from the shared table (decoded and entered on a miss); undefined if not all ASCII. */
  private sharedAscii(start: number, end: number): string | undefined {
    const buf = this.buf;
    const length = end - start;
    // The slot comes from the length and the first 4 and last 8 bytes (where attribute keys differ); a hit
    // still compares every byte, and only ASCII strings are ever entered, so a hit is ASCII too.
    let hash = length;
    for (let i = start, head = Math.min(end, start + 4); i < head; i++) {
      hash = Math.imul(hash ^ buf[i]!, 0x01000193);
    }
    for (let i = Math.max(start + 4, end - 8); i < end; i++) {
      hash = Math.imul(hash ^ buf[i]!, 0x01000193);
    }
    const slot = (hash ^ (hash >>> 15)) & (SHARED_SLOTS - 1);
    const at = slot * SHARED_MAX_BYTES;
    if (sharedLengths[slot] === length) {
      let i = 0;
      while (i < length && sharedBytes[at + i] === buf[start + i]) i++;
      if (i === length) return sharedStrings[slot];
    }
    for (let i = start; i < end; i++) if (buf[i]! >= 0x80) return undefined;
    // ASCII is its own Latin-1 decoding (and the cheapest one).
    const text = this.slices.latin1Slice(start, end);
    sharedStrings[slot] = text;
    sharedBytes.set(buf.subarray(start, end), at);
    sharedLengths[slot] = length;
    return text;
  }
}

function checkId(bytes: number, width: number, index: number, field: string): void {
  if (bytes === 0) fail(`span #${index}: ${field} is missing or empty`);
  if (bytes > width) fail(`span #${index}: ${field} is ${bytes} bytes, expected at most ${width}`);
}
