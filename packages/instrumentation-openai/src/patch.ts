import {
  asRecord,
  asString,
  chatCompletionsApi,
  completionsApi,
  markInstrumented,
  type OpenAIApiEndpoint,
  responsesApi,
} from '@arclight/core';
import { claimLlmCall } from '@arclight/instrumentation';
import { context, createContextKey, diag, type Tracer, trace } from '@opentelemetry/api';
import { CallRecorder } from './call-recorder.js';
import { forClient, type ResolvedOptions } from './options.js';
import { observeResult } from './result-observer.js';
import { safely } from './safely.js';

/** Marks our wrappers (shared across copies of this package) and points at the original method. */
const WRAPPED = Symbol.for('arclight.openai.original');
/**
 * Name under which patched copies are counted in `@arclight/core`'s instrumentation registry (read only to
 * tell a user that a framework's copy is not instrumented while another is) and under which calls are claimed.
 */
export const INSTRUMENTED_NAME = 'openai';
/** `@opentelemetry/core`'s suppress-tracing key (`createContextKey` uses `Symbol.for`). */
const SUPPRESS_TRACING_KEY = createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING');

type Method = (this: unknown, ...args: unknown[]) => unknown;
type Prototype = Record<PropertyKey, unknown>;

/** What a patch asks its owner at call time (so tracer provider and options can change later). */
export interface PatchHooks {
  tracer(): Tracer;
  options(): ResolvedOptions;
}

/** The `OpenAI` class: `openai`'s module namespace / CJS exports, its default export, or the class. */
export function resolveOpenAIClass(target: unknown): Prototype | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [target];
  while (queue.length > 0) {
    const candidate = queue.shift();
    if (candidate === null || candidate === undefined || seen.has(candidate)) continue;
    seen.add(candidate);
    const record = candidate as Prototype;
    const chat = (record.Chat as { Completions?: { prototype?: Prototype } } | undefined)
      ?.Completions;
    if (typeof chat?.prototype?.create === 'function') return record;
    if (typeof candidate === 'object' || typeof candidate === 'function') {
      queue.push(record.OpenAI, record.default);
    }
  }
  return undefined;
}

function targets(openai: Prototype): { proto: Prototype; endpoint: OpenAIApiEndpoint }[] {
  const protoOf = (cls: unknown) => (cls as { prototype?: Prototype } | undefined)?.prototype;
  const chat = (openai.Chat as Prototype | undefined)?.Completions;
  return [
    { proto: protoOf(chat), endpoint: chatCompletionsApi },
    { proto: protoOf(openai.Responses), endpoint: responsesApi },
    { proto: protoOf(openai.Completions), endpoint: completionsApi },
  ].filter(
    (t): t is { proto: Prototype; endpoint: OpenAIApiEndpoint } =>
      typeof t.proto?.create === 'function',
  );
}

/** Whether this copy of the SDK (module or `OpenAI` class) is instrumented. */
export function isOpenAIInstrumented(target: unknown): boolean {
  const openai = resolveOpenAIClass(target);
  return openai !== undefined && targets(openai).some((t) => isWrapper(t.proto.create));
}

function isWrapper(fn: unknown): boolean {
  return typeof fn === 'function' && WRAPPED in fn;
}

/**
 * Wraps `create` on the Chat Completions, Responses and legacy Completions prototypes of one copy of the
 * SDK (CJS and ESM builds are separate copies). Returns the function that restores the originals, or
 * `undefined` when `target` is not the SDK or is already instrumented (a second instrumentation is a no-op).
 */
export function patchOpenAI(target: unknown, hooks: PatchHooks): (() => void) | undefined {
  const openai = resolveOpenAIClass(target);
  if (!openai) {
    diag.warn(
      '@arclight/instrumentation-openai: not the openai module or OpenAI class; nothing instrumented',
    );
    return undefined;
  }
  const list = targets(openai);
  if (list.some((t) => isWrapper(t.proto.create))) {
    diag.debug('@arclight/instrumentation-openai: openai is already instrumented');
    return undefined;
  }
  const state = { active: true };
  const restores = list.map(({ proto, endpoint }) => {
    const original = proto.create as Method;
    const wrapper = createWrapper(original, endpoint, hooks, state);
    Object.defineProperty(wrapper, WRAPPED, { value: original });
    proto.create = wrapper;
    return () => {
      if (proto.create === wrapper) proto.create = original;
    };
  });
  // Lets other integrations tell a user that their framework's copy is the uninstrumented one.
  markInstrumented(INSTRUMENTED_NAME, true);
  return () => {
    if (!state.active) return;
    state.active = false;
    for (const restore of restores) restore();
    markInstrumented(INSTRUMENTED_NAME, false);
  };
}

function createWrapper(
  original: Method,
  endpoint: OpenAIApiEndpoint,
  hooks: PatchHooks,
  state: { active: boolean },
): Method {
  return function instrumentedCreate(this: unknown, ...args: unknown[]): unknown {
    const parent = context.active();
    if (!state.active || parent.getValue(SUPPRESS_TRACING_KEY) === true) {
      return original.apply(this, args);
    }
    const body = asRecord(args[0]);
    if (!body) return original.apply(this, args);
    const options = safely(
      'options',
      () =>
        forClient(hooks.options(), (this as { _client?: { baseURL?: unknown } })._client?.baseURL),
      undefined,
    );
    if (!options) return original.apply(this, args);
    const sent = safely('request options', () => endpoint.augmentBody(body, options), body);
    const callArgs = sent === body ? args : [sent, ...args.slice(1)];
    const recorder = safely(
      'span start',
      () => CallRecorder.start(hooks.tracer(), endpoint, sent, options, parent),
      undefined,
    );
    if (!recorder) return original.apply(this, callArgs);
    // A framework integration (LangChain, Agents SDK, AI SDK) expecting this call in this context now knows
    // that this span is the call's LLM-call span.
    safely('claim', () => claimLlmCall(parent, INSTRUMENTED_NAME, asString(sent.model)), false);
    let result: unknown;
    try {
      result = context.with(trace.setSpan(parent, recorder.span), () =>
        original.apply(this, callArgs),
      );
    } catch (error) {
      recorder.fail(error);
      throw error;
    }
    return safely('result observer', () => observeResult(result, recorder), result);
  };
}
