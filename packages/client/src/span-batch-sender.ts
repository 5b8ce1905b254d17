import { NotFoundError, type Span, StoreError } from '@arclight/core';
import type { HttpTransport } from './http-transport.js';
import {
  decodeOtlpResponse,
  encodeSpansAsOtlp,
  isOtlpEncodable,
  OTLP_PROTOBUF_CONTENT_TYPE,
} from './otlp-encoding.js';

/** What an OTLP export reports: the server's `partial_success` counts. */
export interface OtlpExportResult {
  /** Spans sent in the request. */
  sent: number;
  /** `partial_success.rejected_spans` (upstream's server never sets it; Arclight's counts skipped spans). */
  rejected: number;
  /** `partial_success.error_message`, empty when absent. */
  errorMessage: string;
}

/**
 * Sends span batches through OTLP/HTTP protobuf (`POST /v1/traces`), the bulk route both Arclight's and
 * upstream's servers have. A batch holding a span whose ids are not OTLP-shaped hex goes span by span
 * through `POST /v1/agl/spans` instead (lossless, with exact duplicate reporting).
 */
export class SpanBatchSender {
  constructor(
    private readonly http: HttpTransport,
    private readonly addOne: (span: Span) => Promise<Span | null>,
  ) {}

  /** One OTLP export with the transport's retry policy. */
  async export(spans: readonly Span[]): Promise<OtlpExportResult> {
    if (spans.length === 0) return { sent: 0, rejected: 0, errorMessage: '' };
    const body = await this.http.requestBytes({
      method: 'POST',
      path: '/v1/traces',
      bytes: { body: encodeSpansAsOtlp(spans), contentType: OTLP_PROTOBUF_CONTENT_TYPE },
    });
    const { rejectedSpans, errorMessage } = decodeOtlpResponse(body);
    return { sent: spans.length, rejected: rejectedSpans, errorMessage };
  }

  /**
   * `addManySpans` as far as OTLP can tell. The server's answer carries only a count of rejected spans, so:
   * - nothing rejected → the batch is returned, minus repeated (rollout, attempt, span_id) keys within it
   *   (the first occurrence is the one stored). A span that duplicates an earlier write is not reported by
   *   any server over OTLP and is returned as if stored.
   * - some rejected (Arclight's server: spans of unknown rollouts/attempts; the other spans of the batch ARE
   *   stored) → rejects with `NotFoundError` (or `StoreError`) carrying the counts and the server's message.
   */
  async send(spans: Span[]): Promise<Span[]> {
    if (spans.length === 0) return [];
    if (!spans.every(isOtlpEncodable)) return this.sendOneByOne(spans);
    const result = await this.export(spans);
    if (result.rejected > 0) {
      const message =
        `POST /v1/traces: the server rejected ${result.rejected} of ${result.sent} span(s)` +
        (result.rejected < result.sent ? ' (the others were stored)' : '') +
        (result.errorMessage ? `: ${result.errorMessage}` : '');
      throw /not found|unknown/i.test(result.errorMessage)
        ? new NotFoundError(message)
        : new StoreError(message);
    }
    return withoutRepeatedKeys(spans);
  }

  private async sendOneByOne(spans: Span[]): Promise<Span[]> {
    const stored: Span[] = [];
    for (const span of spans) {
      const result = await this.addOne(span);
      if (result) stored.push(result);
    }
    return stored;
  }
}

function withoutRepeatedKeys(spans: Span[]): Span[] {
  const seen = new Set<string>();
  return spans.filter((span) => {
    const key = JSON.stringify([span.rollout_id, span.attempt_id, span.span_id]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
