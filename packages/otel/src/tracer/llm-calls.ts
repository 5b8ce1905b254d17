import { subscribe } from 'node:diagnostics_channel';
import { GenAI, LlmCallSpanNames, WarningCodes, warnOnce } from '@arclight/core';
import type { ReadableSpanLike } from '../otel-types.js';
import { currentScope, type TraceScope } from './trace-scope.js';

/**
 * LLM calls of a rollout, seen two ways: as LLM-call spans (what becomes training data) and as requests to an
 * LLM API on the wire (Node's HTTP clients publish every request on `node:diagnostics_channel`: fetch/undici,
 * which the `openai` SDK uses, and `node:http`). A rollout that sent LLM requests but recorded no LLM-call
 * span made its calls through a client nobody instruments — a bundled `openai` that the `--import …/register`
 * hook cannot see, an `openai` copy other than the one passed to `instrumentOpenAI`, a framework without its
 * integration, plain `fetch` — and would give no training data without a word: it warns once per process
 * (`ARCLIGHT_UNTRACED_LLM_REQUESTS`) when the rollout ends, with the fix.
 */

const LLM_CALL_NAMES: ReadonlySet<string> = new Set(Object.values(LlmCallSpanNames));
/** The OpenAI-compatible generation routes (chat, responses, legacy completions), as the path ends. */
const LLM_API_PATH = /\/(chat\/completions|responses|completions)\/?(\?|$)/;
/** Calls through an LLM gateway that records them itself (Arclight's or upstream's `LLMProxy`). */
const GATEWAY_PATH = /\/rollout\/[^/]+\/attempt\/[^/]+\//;
const GATEWAY_HEADER = 'x-rollout-id';

/** Whether a finished span is an LLM call: by its name, or by gen_ai attributes. */
export function isLlmCallSpan(span: ReadableSpanLike): boolean {
  const attributes = span.attributes ?? {};
  return (
    LLM_CALL_NAMES.has(span.name) ||
    attributes[GenAI.SYSTEM] !== undefined ||
    attributes[GenAI.REQUEST_MODEL] !== undefined
  );
}

interface UndiciRequest {
  method?: string;
  origin?: unknown;
  path?: string;
  headers?: unknown;
}

interface HttpClientRequest {
  method?: string;
  protocol?: string;
  host?: string;
  path?: string;
  getHeader?: (name: string) => unknown;
}

let watching = false;

/**
 * Starts noting LLM API requests in the rollout scope they are made in: once per copy of this package (each copy
 * has its own scopes).
 */
export function watchLlmRequests(): void {
  if (watching) return;
  watching = true;
  subscribe('undici:request:create', (message) => {
    const request = (message as { request?: UndiciRequest }).request;
    note(
      request?.method,
      request?.path,
      () => `${String(request?.origin ?? '')}${request?.path}`,
      () => hasGatewayHeader(request?.headers),
    );
  });
  subscribe('http.client.request.start', (message) => {
    const request = (message as { request?: HttpClientRequest }).request;
    note(
      request?.method,
      request?.path,
      () => {
        const host = String(request?.getHeader?.('host') ?? request?.host ?? '');
        return `${request?.protocol ?? ''}//${host}${request?.path}`;
      },
      () => request?.getHeader?.(GATEWAY_HEADER) !== undefined,
    );
  });
}

/**
 * Notes a request in the current rollout scope when it is an LLM API call. Never throws: a subscriber's exception
 * would surface as the application's uncaught exception.
 */
function note(
  method: string | undefined,
  path: string | undefined,
  url: () => string,
  viaGateway: () => boolean,
): void {
  try {
    if (method !== 'POST' || typeof path !== 'string') return;
    const scope = currentScope();
    if (!scope?.attribution || !LLM_API_PATH.test(path) || GATEWAY_PATH.test(path)) return;
    if (viaGateway()) return;
    scope.noteLlmRequest(url().split('?')[0] as string);
  } catch {
    // Watching must never break a request.
  }
}

/** undici's headers: a flat [name, value, …] array (Node 22+), or one `name: value\r\n…` string. */
function hasGatewayHeader(headers: unknown): boolean {
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) {
      if (String(headers[i]).toLowerCase() === GATEWAY_HEADER) return true;
    }
    return false;
  }
  return typeof headers === 'string' && headers.toLowerCase().includes(`${GATEWAY_HEADER}:`);
}

/** At the end of a rollout scope: warns when it sent LLM requests and recorded no LLM-call span. */
export function warnIfUntracedLlmRequests(scope: TraceScope): void {
  const { attribution, llmRequests } = scope;
  if (!attribution || llmRequests.count === 0 || scope.llmCallSpans > 0) return;
  warnOnce(
    WarningCodes.UNTRACED_LLM_REQUESTS,
    `rollout ${attribution.rolloutId} sent ${llmRequests.count} LLM request(s) (POST ${llmRequests.first}) ` +
      'but recorded no LLM-call span, so it gives no training data: the client that made them is not ' +
      'instrumented. Fix: `instrumentOpenAI(OpenAI, { tracerProvider })` (@arclight/instrumentation-openai) ' +
      'with the `openai` your agent imports — a bundled app (esbuild, webpack, Next.js) needs this: ' +
      '`--import @arclight/instrumentation-openai/register` cannot patch a bundled copy — or the integration of ' +
      'your framework (@arclight/instrumentation-langchain, -openai-agents, -ai-sdk).',
  );
}
