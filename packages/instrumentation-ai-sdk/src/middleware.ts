import { asRecord, type JsonRecord } from '@arclight/core';
import { trace } from '@opentelemetry/api';
import type { LanguageModel, LanguageModelMiddleware } from 'ai';
import { wrapLanguageModel } from 'ai';
import type { ModelCallOutcome } from './attributes/response.js';
import { parseJsonRecord } from './json.js';
import { safely } from './safely.js';
import { readResponseBody } from './spans/model-call-outcome.js';
import { StreamAccumulator } from './spans/stream-accumulator.js';
import { reportTokenIds, type TokenIds } from './token-ids-report.js';

/** The `providerMetadata` key under which the middleware reports token ids. */
export const TOKEN_IDS_METADATA_KEY = 'arclight';

export interface ArclightMiddlewareOptions {
  /**
   * Ask the server for token ids (`return_token_ids: true`, vLLM ≥ 0.10.2), sent through `providerOptions`
   * under `providerOptionsKey`; OpenAI-compatible providers copy unknown provider options into the request
   * body. Default true.
   */
  requestTokenIds?: boolean;
  /** The `providerOptions` key. Default: the provider id's first segment (`vllm` for `vllm.chat`). */
  providerOptionsKey?: string;
}

type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
type ProviderMetadata = NonNullable<CallOptions['providerOptions']>;

/**
 * Language-model middleware that makes a model's token ids visible: it asks the server for them
 * (`return_token_ids`) and reports the ids the server returned — from the raw response body, or folded from
 * the raw chunks of a stream (which it requests, and drops again unless the caller asked for them) — as
 * `providerMetadata.arclight = { prompt_token_ids, response_token_ids }` on the result / `finish` part,
 * where the Arclight telemetry integration (and the application) read them, and to the model-call span of
 * `ai` 5 / 6 (see token-ids-report.ts).
 */
export function arclightMiddleware(
  options: ArclightMiddlewareOptions = {},
): LanguageModelMiddleware {
  const requestTokenIds = options.requestTokenIds !== false;
  /** Stream calls whose raw chunks were requested here, not by the caller. */
  const addedRawChunks = new WeakSet<object>();
  return {
    specificationVersion: 'v4',
    transformParams: async ({ type, params, model }) => {
      let next: CallOptions = params;
      if (requestTokenIds) {
        const key = options.providerOptionsKey ?? model.provider.split('.')[0] ?? model.provider;
        const existing = asRecord(params.providerOptions?.[key]) ?? {};
        const entry = { return_token_ids: true, ...existing } as ProviderMetadata[string];
        next = { ...next, providerOptions: { ...params.providerOptions, [key]: entry } };
      }
      if (type === 'stream' && params.includeRawChunks !== true) {
        next = { ...next, includeRawChunks: true };
        addedRawChunks.add(next);
      }
      return next;
    },
    wrapGenerate: async ({ doGenerate }) => {
      const span = trace.getActiveSpan();
      const result = await doGenerate();
      const ids = safely('token ids', () => tokenIdsOfBody(result.response?.body), undefined);
      if (!ids) return result;
      reportTokenIds(span, ids);
      return { ...result, providerMetadata: withTokenIds(result.providerMetadata, ids) };
    },
    wrapStream: async ({ doStream, params }) => {
      const span = trace.getActiveSpan();
      const result = await doStream();
      const dropRaw = addedRawChunks.has(params);
      const collector = new StreamAccumulator();
      const stream = result.stream.pipeThrough(
        new TransformStream({
          transform(part, controller) {
            if (part.type === 'raw') {
              safely('raw chunk', () => collector.add(part), undefined);
              if (!dropRaw) controller.enqueue(part);
              return;
            }
            if (part.type === 'finish') {
              const ids = safely('token ids', () => tokenIdsOf(collector), undefined);
              if (ids) {
                reportTokenIds(span, ids);
                controller.enqueue({
                  ...part,
                  providerMetadata: withTokenIds(part.providerMetadata, ids),
                });
                return;
              }
            }
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}

/**
 * `wrapLanguageModel({ model, middleware: arclightMiddleware(options) })`. A model of `ai` 5 or 6
 * (`specificationVersion` `v2` / `v3`, e.g. from `@ai-sdk/openai` 2.x / 3.x) is wrapped keeping its
 * specification version, as those SDKs' own `wrapLanguageModel` does.
 */
export function withArclight<M extends Exclude<LanguageModel, string>>(
  model: M,
  options: ArclightMiddlewareOptions = {},
): M {
  const middleware = arclightMiddleware(options);
  const version = (model as { specificationVersion?: unknown }).specificationVersion;
  if (version === 'v2' || version === 'v3') return wrapEarlierModel(model, middleware) as M;
  return wrapLanguageModel({ model, middleware }) as unknown as M;
}

/** The middleware around a `LanguageModelV2` / `V3` (same call shape as V4 for everything it touches). */
function wrapEarlierModel(model: object, middleware: LanguageModelMiddleware): object {
  type Params = CallOptions;
  const inner = model as {
    specificationVersion: string;
    provider: string;
    modelId: string;
    supportedUrls?: unknown;
    doGenerate(params: Params): PromiseLike<never>;
    doStream(params: Params): PromiseLike<never>;
  };
  const { transformParams, wrapGenerate, wrapStream } = middleware as unknown as {
    transformParams: (o: { type: string; params: Params; model: unknown }) => Promise<Params>;
    wrapGenerate: (o: object) => Promise<unknown>;
    wrapStream: (o: object) => Promise<unknown>;
  };
  const calls = (params: Params) => ({
    doGenerate: async () => await inner.doGenerate(params),
    doStream: async () => await inner.doStream(params),
    params,
    model: inner,
  });
  return {
    specificationVersion: inner.specificationVersion,
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    async doGenerate(params: Params) {
      return await wrapGenerate(calls(await transformParams({ type: 'generate', params, model })));
    },
    async doStream(params: Params) {
      return await wrapStream(calls(await transformParams({ type: 'stream', params, model })));
    },
  };
}

function tokenIdsOfBody(body: unknown): TokenIds | undefined {
  const record = parseJsonRecord(body);
  if (!record) return undefined;
  const outcome: ModelCallOutcome = { text: '', toolCalls: [] };
  readResponseBody(outcome, record);
  return tokenIds(outcome);
}

function tokenIdsOf(collector: StreamAccumulator): TokenIds | undefined {
  return tokenIds(collector.finish());
}

function tokenIds(outcome: { promptTokenIds?: number[]; responseTokenIds?: number[] }) {
  if (!outcome.promptTokenIds && !outcome.responseTokenIds) return undefined;
  const ids: TokenIds = {};
  if (outcome.promptTokenIds) ids.prompt_token_ids = outcome.promptTokenIds;
  if (outcome.responseTokenIds) ids.response_token_ids = outcome.responseTokenIds;
  return ids;
}

function withTokenIds(metadata: ProviderMetadata | undefined, ids: TokenIds): ProviderMetadata {
  const existing: JsonRecord = asRecord(metadata?.[TOKEN_IDS_METADATA_KEY]) ?? {};
  return {
    ...metadata,
    [TOKEN_IDS_METADATA_KEY]: { ...existing, ...ids } as ProviderMetadata[string],
  };
}
