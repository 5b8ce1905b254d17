import { otlpTypes } from './proto-schema.js';

export type OtlpEncoding = 'protobuf' | 'json';

export const PROTOBUF_CONTENT_TYPE = 'application/x-protobuf';
export const JSON_CONTENT_TYPE = 'application/json';

export const contentTypeOf = (encoding: OtlpEncoding): string =>
  encoding === 'protobuf' ? PROTOBUF_CONTENT_TYPE : JSON_CONTENT_TYPE;

/** The answer to a fully accepted export: an empty `ExportTraceServiceResponse` (no bytes) or `{}`. */
const ACCEPTED = { protobuf: Buffer.alloc(0), json: Buffer.from('{}') } as const;

/** `ExportTraceServiceResponse`; `partial_success` only when spans were rejected (OTLP/HTTP spec). */
export function encodeExportResponse(
  encoding: OtlpEncoding,
  rejected: number,
  errorMessage: string,
): Buffer {
  if (rejected === 0) return ACCEPTED[encoding];
  if (encoding === 'json') {
    const body =
      rejected > 0 ? { partialSuccess: { rejectedSpans: String(rejected), errorMessage } } : {};
    return Buffer.from(JSON.stringify(body));
  }
  const { response } = otlpTypes();
  const message =
    rejected > 0
      ? { partial_success: { rejected_spans: rejected, error_message: errorMessage } }
      : {};
  return Buffer.from(response.encode(response.fromObject(message)).finish());
}

/** `google.rpc.Status` for a failed export (OTLP/HTTP: the body of a 4xx/5xx response). */
export function encodeRpcStatus(encoding: OtlpEncoding, code: number, message: string): Buffer {
  if (encoding === 'json') return Buffer.from(JSON.stringify({ code, message }));
  const { rpcStatus } = otlpTypes();
  return Buffer.from(rpcStatus.encode(rpcStatus.fromObject({ code, message })).finish());
}
