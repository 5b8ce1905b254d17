import { HttpError } from './errors.js';

/**
 * Bounds on the work one request may cause. Each is checked while reading the request, before the decoded data
 * grows with it, and a violation is answered with a 413 (too much of something) or 400 (malformed) whose detail
 * names the limit (`limits.maxSpansPerRequest`, …), so a client knows which knob to turn.
 */
export interface RequestLimits {
  /** Spans in one OTLP export request. Default 20,000 (OTel SDK batches are 512). */
  maxSpansPerRequest: number;
  /** Attributes on one span, event, link or resource. Default 8,192. */
  maxAttributesPerSpan: number;
  /** Bytes of one string/bytes attribute value (and of one attribute key). Default 16 MiB. */
  maxAttributeValueBytes: number;
  /**
   * Nesting depth of free-form values: OTLP `arrayValue`/`kvlistValue` (protobuf and JSON alike) and JSON in
   * REST bodies (`input`, `metadata`, `heartbeat_stats`, span attributes, …). Default 64.
   */
  maxDepth: number;
  /** Values (attributes, array items, JSON objects/arrays) in one request. Default 2,000,000. */
  maxValuesPerRequest: number;
  /** Size of a gzip-compressed OTLP body once decompressed. Default: the body limit. */
  maxDecompressedBytes: number;
  /**
   * Items (rollouts, attempts, spans, resources, workers) in one page answer, whatever `limit` asks for (-1
   * included). Default 100,000.
   */
  maxItemsPerResponse: number;
}

export const DEFAULT_LIMITS: Omit<RequestLimits, 'maxDecompressedBytes'> = {
  maxSpansPerRequest: 20_000,
  maxAttributesPerSpan: 8_192,
  maxAttributeValueBytes: 16 * 1024 * 1024,
  maxDepth: 64,
  maxValuesPerRequest: 2_000_000,
  maxItemsPerResponse: 100_000,
};

/** Levels a REST body adds around its free-form fields (`{"metadata": …}`, `{"rollouts": [{"input": …}]}`). */
export const REST_ENVELOPE_DEPTH = 4;

/**
 * Levels OTLP/JSON adds per `AnyValue` nesting step (at most `{"kvlistValue": {"values": [{"key": …, "value": {`)
 * and around spans.
 */
const OTLP_JSON_LEVELS_PER_DEPTH = 4;
const OTLP_JSON_ENVELOPE_DEPTH = 16;

/** Why a request was refused, for the `arclight_requests_rejected_total{reason}` metric. */
export type LimitName = keyof RequestLimits;

/** A request over one of the limits; `reason` is the limit's name. */
export class LimitError extends HttpError {
  readonly reason: LimitName;
  constructor(statusCode: 400 | 413, reason: LimitName, limit: number, what: string, fix?: string) {
    super(statusCode, `${what} exceeds limits.${reason} (${limit})${fix ? `: ${fix}` : ''}`);
    this.name = 'LimitError';
    this.reason = reason;
  }
}

/** Validates user-supplied limits (each a positive integer) and fills in defaults. */
export function resolveLimits(
  limits: Partial<RequestLimits> | undefined,
  bodyLimit: number,
): RequestLimits {
  const resolved: RequestLimits = {
    ...DEFAULT_LIMITS,
    maxDecompressedBytes: bodyLimit,
    ...stripUndefined(limits ?? {}),
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(`limits.${name}: expected a positive integer, got ${String(value)}`);
    }
  }
  return resolved;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The deepest JSON nesting allowed in the text of a REST body. */
export const restJsonDepth = (limits: RequestLimits): number =>
  limits.maxDepth + REST_ENVELOPE_DEPTH;

/** The deepest JSON nesting allowed in the text of an OTLP/JSON body (its decoder then checks `maxDepth` exactly). */
export const otlpJsonDepth = (limits: RequestLimits): number =>
  limits.maxDepth * OTLP_JSON_LEVELS_PER_DEPTH + OTLP_JSON_ENVELOPE_DEPTH;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * One pass over JSON text before `JSON.parse`: refuses nesting deeper than `maxDepth` and more than
 * `limits.maxValuesPerRequest` objects/arrays, so neither the parser nor later recursive walks
 * (`JSON.stringify` when storing) can run out of stack or memory. Malformed text is left for `JSON.parse`.
 */
export function checkJsonText(text: string, maxDepth: number, limits: RequestLimits): void {
  let depth = 0;
  let containers = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      containers++;
      if (depth > maxDepth) {
        throw new LimitError(400, 'maxDepth', limits.maxDepth, 'JSON nesting depth');
      }
      if (containers > limits.maxValuesPerRequest) {
        throw new LimitError(
          413,
          'maxValuesPerRequest',
          limits.maxValuesPerRequest,
          'Number of JSON objects and arrays in the request',
        );
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
}
