import type { Span } from '@opentelemetry/api';

/** The token ids of one provider call, as the middleware reports them (`providerMetadata.arclight`). */
export interface TokenIds {
  prompt_token_ids?: number[];
  response_token_ids?: number[];
}

/**
 * A side channel from `arclightMiddleware` to the span of the provider call it runs in. The middleware reports
 * token ids in the result's `providerMetadata`, but `ai` 6 records provider metadata on its spans only with
 * `recordOutputs` on: `ai` 5 / 6's model-call span ({@link SdkModelSpan}) therefore also takes them here.
 */
const receivers = new WeakMap<Span, (ids: TokenIds) => void>();

/** Makes `span` receive the token ids the middleware finds while it is the active span. */
export function receiveTokenIds(span: Span, receiver: (ids: TokenIds) => void): void {
  receivers.set(span, receiver);
}

/** Hands `ids` to `span` if it takes them (a no-op for any other span, e.g. on `ai` 7). */
export function reportTokenIds(span: Span | undefined, ids: TokenIds): void {
  if (span !== undefined) receivers.get(span)?.(ids);
}
