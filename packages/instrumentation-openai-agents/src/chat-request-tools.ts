import {
  asArray,
  asRecord,
  asString,
  type JsonRecord,
  readToolDefinitions,
  type ToolDefinition,
} from '@arclight/core';
import { type Context, context, createContextKey } from '@opentelemetry/api';
import { safely } from './safely.js';

/**
 * Tool definitions of the Chat Completions model's requests. The SDK's `generation` span data has the
 * messages, the completion and usage of a call, not the `tools` the request offered; those are built from the
 * model request's `tools` (function tools) and `handoffs` (`transfer_to_*` function tools) by
 * `OpenAIChatCompletionsModel` right before it calls `chat.completions.create`. Wrapping the model's
 * `getResponse` / `getStreamedResponse` puts the definitions of that same request in the OpenTelemetry context
 * the SDK starts the call's generation span in, where the processor reads them.
 */

const REQUEST_TOOLS = createContextKey('arclight.openai_agents.chat_request_tools');
const PATCH = Symbol.for('arclight.openai_agents.chat_request_tools.patch');

type ModelMethod = (this: unknown, request: unknown, ...rest: unknown[]) => unknown;

interface ModelPrototype {
  getResponse?: ModelMethod;
  getStreamedResponse?: ModelMethod;
  [PATCH]?: PatchState;
}

interface PatchState {
  users: number;
  restore(): void;
}

/** How many `observeChatRequestTools` calls are in effect (over every model class). */
let observers = 0;

/** Whether some Chat Completions model class is observed (its calls' spans get their request tools). */
export function isObservingChatRequestTools(): boolean {
  return observers > 0;
}

/** `OpenAIChatCompletionsModel` of `@openai/agents` (the class; pass it as exported by the SDK). */
export interface ChatCompletionsModelClass {
  readonly prototype: object;
}

/** The tool definitions recorded for the model call whose span starts in `ctx`, if any. */
export function requestToolsIn(ctx: Context): ToolDefinition[] | undefined {
  const value = ctx.getValue(REQUEST_TOOLS);
  return Array.isArray(value) ? (value as ToolDefinition[]) : undefined;
}

/**
 * The function tools of a model request as `chat.completions.create` receives them: each function tool
 * (`{type: 'function', name, description, parameters}`), then each handoff (`toolName`, `toolDescription`,
 * `inputJsonSchema`). Hosted tools are refused by the Chat Completions model, so they are not offered.
 */
export function chatRequestToolDefinitions(request: unknown): ToolDefinition[] {
  const record = asRecord(request) ?? {};
  const tools = asArray(record.tools).filter((tool) => asRecord(tool)?.type === 'function');
  const handoffs = asArray(record.handoffs).map((handoff): JsonRecord => {
    const h = asRecord(handoff) ?? {};
    return {
      name: asString(h.toolName),
      description: asString(h.toolDescription),
      parameters: h.inputJsonSchema,
    };
  });
  return readToolDefinitions([...tools, ...handoffs], { customTools: false });
}

/**
 * Wraps `getResponse` and `getStreamedResponse` of the Chat Completions model class so that each call's
 * generation span records the tools its request offered (`gen_ai.request.functions.N.*`). Idempotent across
 * callers; returns a function that undoes this caller's share (the wrap is removed with the last one).
 */
export function observeChatRequestTools(modelClass: ChatCompletionsModelClass): () => void {
  const proto = modelClass?.prototype as ModelPrototype | undefined;
  if (!proto || typeof proto.getResponse !== 'function') return () => {};
  let state = proto[PATCH];
  if (!state) {
    const getResponse = proto.getResponse;
    const getStreamedResponse = proto.getStreamedResponse;
    proto.getResponse = function (this: unknown, request, ...rest) {
      return context.with(withRequestTools(request), () =>
        getResponse.call(this, request, ...rest),
      );
    };
    if (typeof getStreamedResponse === 'function') {
      proto.getStreamedResponse = function (this: unknown, request, ...rest) {
        const ctx = withRequestTools(request);
        const stream = context.with(ctx, () => getStreamedResponse.call(this, request, ...rest));
        return inContext(stream, ctx);
      };
    }
    const patched = proto.getResponse;
    state = {
      users: 0,
      restore() {
        if (proto.getResponse === patched) proto.getResponse = getResponse;
        if (typeof getStreamedResponse === 'function') {
          proto.getStreamedResponse = getStreamedResponse;
        }
        delete proto[PATCH];
      },
    };
    Object.defineProperty(proto, PATCH, { value: state, configurable: true });
  }
  const shared = state;
  shared.users += 1;
  observers += 1;
  let undone = false;
  return () => {
    if (undone) return;
    undone = true;
    shared.users -= 1;
    observers -= 1;
    if (shared.users === 0) shared.restore();
  };
}

function withRequestTools(request: unknown): Context {
  const active = context.active();
  const tools = safely('request tools', () => chatRequestToolDefinitions(request));
  return tools ? active.setValue(REQUEST_TOOLS, tools) : active;
}

/**
 * The streamed response's async generator runs its body in the context of each `next()` call, not where it
 * was created: every step runs in `ctx`, so the generation span it starts sees the request's tools.
 */
function inContext(stream: unknown, ctx: Context): unknown {
  const iterator = stream as AsyncIterator<unknown> & AsyncIterable<unknown>;
  if (typeof iterator?.next !== 'function') return stream;
  const wrapped: AsyncIterableIterator<unknown> = {
    next: (...args: [] | [unknown]) => context.with(ctx, () => iterator.next(...args)),
    return: (value?: unknown) =>
      context.with(ctx, () =>
        typeof iterator.return === 'function'
          ? iterator.return(value)
          : Promise.resolve({ done: true as const, value }),
      ),
    throw: (error?: unknown) =>
      context.with(ctx, () =>
        typeof iterator.throw === 'function' ? iterator.throw(error) : Promise.reject(error),
      ),
    [Symbol.asyncIterator]() {
      return wrapped;
    },
  };
  return wrapped;
}
