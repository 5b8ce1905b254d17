import { LimitError, type RequestLimits } from '../http/limits.js';
import { OtlpDecodeError } from './model.js';

/**
 * One pass over the wire bytes of an `ExportTraceServiceRequest`, before anything is decoded: counts spans,
 * attributes and values, measures `AnyValue` nesting and string sizes, and checks that every span carries a
 * `trace_id` and `span_id` — allocating nothing but the call stack (whose depth is bounded by `maxDepth`).
 * Only when this passes does protobufjs decode the request, so the memory it takes is bounded by the limits.
 *
 * Field numbers are those of opentelemetry-proto's trace/v1, common/v1 and resource/v1 messages.
 */
export function scanProtobufTraces(body: Uint8Array, limits: RequestLimits): void {
  new Scanner(body, limits).request();
}

const VARINT = 0;
const FIXED64 = 1;
const LEN = 2;
const FIXED32 = 5;

const TRACE_ID_BYTES = 16;
const SPAN_ID_BYTES = 8;

type FieldVisitor = (field: number, start: number, end: number) => void;

class Scanner {
  private spans = 0;
  private values = 0;

  constructor(
    private readonly buf: Uint8Array,
    private readonly limits: RequestLimits,
  ) {}

  request(): void {
    this.fields(0, this.buf.length, 'request', (field, start, end) => {
      if (field === 1) this.resourceSpans(start, end);
    });
  }

  private resourceSpans(start: number, end: number): void {
    this.fields(start, end, 'ResourceSpans', (field, s, e) => {
      if (field === 1) this.attributeHolder(s, e, 1, 'resource');
      else if (field === 2) this.scopeSpans(s, e);
    });
  }

  private scopeSpans(start: number, end: number): void {
    this.fields(start, end, 'ScopeSpans', (field, s, e) => {
      if (field === 1) this.attributeHolder(s, e, 3, 'scope');
      else if (field === 2) this.span(s, e);
    });
  }

  private span(start: number, end: number): void {
    this.spans++;
    const index = this.spans - 1;
    if (this.spans > this.limits.maxSpansPerRequest) {
      throw new LimitError(
        413,
        'maxSpansPerRequest',
        this.limits.maxSpansPerRequest,
        'Number of spans in the request',
      );
    }
    let traceId = 0;
    let spanId = 0;
    let attributes = 0;
    const where = `span #${index}`;
    this.fields(start, end, 'Span', (field, s, e) => {
      if (field === 1) traceId = e - s;
      else if (field === 2) spanId = e - s;
      else if (field === 9) {
        attributes++;
        this.checkAttributeCount(attributes, where);
        this.keyValue(s, e, 1);
      } else if (field === 11) this.attributeHolder(s, e, 3, `${where} event`);
      else if (field === 13) this.link(s, e, where);
    });
    checkId(traceId, TRACE_ID_BYTES, `${where}: trace_id`);
    checkId(spanId, SPAN_ID_BYTES, `${where}: span_id`);
  }

  private link(start: number, end: number, where: string): void {
    let attributes = 0;
    this.fields(start, end, 'Span.Link', (field, s, e) => {
      if (field === 1 && e - s > TRACE_ID_BYTES) fail(`${where} link: trace_id is too long`);
      else if (field === 2 && e - s > SPAN_ID_BYTES) fail(`${where} link: span_id is too long`);
      else if (field === 4) {
        attributes++;
        this.checkAttributeCount(attributes, `${where} link`);
        this.keyValue(s, e, 1);
      }
    });
  }

  /** A message whose field `attributeField` is a repeated `KeyValue` (Resource, InstrumentationScope, Event). */
  private attributeHolder(start: number, end: number, attributeField: number, where: string): void {
    let attributes = 0;
    this.fields(start, end, where, (field, s, e) => {
      if (field === attributeField) {
        attributes++;
        this.checkAttributeCount(attributes, where);
        this.keyValue(s, e, 1);
      }
    });
  }

  private keyValue(start: number, end: number, depth: number): void {
    this.countValue();
    this.fields(start, end, 'KeyValue', (field, s, e) => {
      if (field === 1) this.checkSize(e - s, 'Attribute key');
      else if (field === 2) this.anyValue(s, e, depth);
    });
  }

  private anyValue(start: number, end: number, depth: number): void {
    if (depth > this.limits.maxDepth) {
      throw new LimitError(400, 'maxDepth', this.limits.maxDepth, 'Attribute value nesting depth');
    }
    this.fields(start, end, 'AnyValue', (field, s, e) => {
      if (field === 1 || field === 7) this.checkSize(e - s, 'Attribute value');
      else if (field === 5) {
        this.fields(s, e, 'ArrayValue', (f, s2, e2) => {
          if (f !== 1) return;
          this.countValue();
          this.anyValue(s2, e2, depth + 1);
        });
      } else if (field === 6) {
        this.fields(s, e, 'KeyValueList', (f, s2, e2) => {
          if (f === 1) this.keyValue(s2, e2, depth + 1);
        });
      }
    });
  }

  private checkAttributeCount(count: number, where: string): void {
    if (count > this.limits.maxAttributesPerSpan) {
      throw new LimitError(
        413,
        'maxAttributesPerSpan',
        this.limits.maxAttributesPerSpan,
        `Number of attributes of ${where}`,
      );
    }
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

  /** Calls `visit` for every length-delimited field in [start, end); skips scalar fields. */
  private fields(start: number, end: number, message: string, visit: FieldVisitor): void {
    let pos = start;
    while (pos < end) {
      const [tag, afterTag] = this.varint(pos, end, message);
      pos = afterTag;
      const field = Math.floor(tag / 8);
      const wireType = tag % 8;
      if (field === 0) fail(`${message}: invalid field number 0`);
      switch (wireType) {
        case VARINT:
          pos = this.varint(pos, end, message)[1];
          break;
        case FIXED64:
          pos += 8;
          break;
        case FIXED32:
          pos += 4;
          break;
        case LEN: {
          const [length, afterLength] = this.varint(pos, end, message);
          const fieldEnd = afterLength + length;
          if (fieldEnd > end) fail(`${message}: field ${field} runs past the end of its message`);
          visit(field, afterLength, fieldEnd);
          pos = fieldEnd;
          break;
        }
        default:
          fail(`${message}: unsupported wire type ${wireType} in field ${field}`);
      }
      if (pos > end) fail(`${message}: truncated field ${field}`);
    }
  }

  /** A varint at `pos` (at most 10 bytes), as a number (exact up to 2^53; lengths and tags are far below). */
  private varint(pos: number, end: number, message: string): [number, number] {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (pos >= end) fail(`${message}: truncated varint`);
      const byte = this.buf[pos++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return [value, pos];
      scale *= 128;
    }
    return fail(`${message}: varint longer than 10 bytes`);
  }
}

function checkId(length: number, width: number, what: string): void {
  if (length === 0) fail(`${what} is missing or empty`);
  if (length > width) fail(`${what} is ${length} bytes, expected at most ${width}`);
}

function fail(problem: string): never {
  throw new OtlpDecodeError(`Unable to parse OTLP traces payload: ${problem}`);
}
