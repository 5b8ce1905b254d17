import { type AttributeBag, asString, isInstrumented } from '@arclight/core';
import {
  expectLlmCall,
  hasTokenIds,
  type LlmCallClaim,
  warnNoTokenIds,
  warnUninstrumentedClient,
} from '@arclight/instrumentation';
import type {
  HandleLLMNewTokenCallbackFields,
  NewTokenIndices,
} from '@langchain/core/callbacks/base';
import { BaseTracer, type Run } from '@langchain/core/tracers/base';
import {
  type Context,
  context,
  diag,
  type Span,
  SpanKind,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { newAttributeBag } from './attributes/bag.js';
import { LangChainAttributes } from './attributes/keys.js';
import { writeLlmRequest, writeLlmResponse } from './attributes/llm-call.js';
import { invocationParams, runMetadata, writeRunAttributes } from './attributes/run.js';
import { installContextBridge, runSpans } from './context-bridge.js';
import { recordRunError } from './errors.js';
import {
  type ArclightCallbackHandlerOptions,
  type ResolvedOptions,
  resolveOptions,
} from './options.js';
import {
  defaultAgentName,
  isHiddenRun,
  isOpenAICompatible,
  llmSystem,
  modelSpanName,
  runSpanName,
} from './run-kind.js';
import { safely } from './safely.js';
import { StreamAccumulator } from './stream-accumulator.js';
import { assertSupportedLangChainCore } from './supported-core.js';
import { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from './version.js';

/** The handler's `name`: LangChain keeps one handler per name, so explicit and global use never double up. */
export const HANDLER_NAME = 'arclight_langchain_tracer';

/** The span of one traced run, or the placeholder of a hidden run (`own: false`, its ancestor's span). */
interface SpanEntry {
  span: Span | undefined;
  own: boolean;
  /** Whether the span is (or, while `claim` is open, may become) the LLM-call span. */
  llmCall: boolean;
  /** `llmCallSpans: 'auto'`: the claim an instrumented client takes when it records this call itself. */
  claim?: LlmCallClaim;
  /** Request attributes of the LLM call, written at the end if the span turns out to be the LLM call. */
  request?: AttributeBag;
  stream?: StreamAccumulator;
  error?: unknown;
}

type StoredRun = ReturnType<BaseTracer['_addRunToRunMap']>;

/**
 * A LangChain callback handler (a `BaseTracer`: it rebuilds the run tree from `parent_run_id`) that writes
 * one OpenTelemetry span per chain, model, tool and retriever run, nested like the runs. Pass it in
 * `callbacks: [handler]`, or register it for every run with `instrumentLangChain`.
 */
export class ArclightCallbackHandler extends BaseTracer {
  name = HANDLER_NAME;
  private readonly options: ResolvedOptions;
  private readonly agentName: (run: Run, isRoot: boolean) => string | undefined;
  private readonly tracerProvider: ArclightCallbackHandlerOptions['tracerProvider'];
  private tracer: Tracer | undefined;
  private readonly entries = new Map<string, SpanEntry>();

  constructor(options: ArclightCallbackHandlerOptions = {}) {
    assertSupportedLangChainCore(); // @langchain/core < 1: a clear error, not a handler that records nothing
    super({ _awaitHandler: options.awaitHandlers ?? true });
    this.options = resolveOptions(options);
    this.agentName = options.agentName ?? defaultAgentName;
    this.tracerProvider = options.tracerProvider;
    if (this.options.propagateContext) installContextBridge();
  }

  protected persistRun(_run: Run): Promise<void> {
    return Promise.resolve();
  }

  /** Called synchronously by LangChain's callback manager for every new run: the span starts here. */
  override _addRunToRunMap(run: Run): StoredRun {
    const stored = super._addRunToRunMap(run);
    safely('span start', () => this.startSpan(stored), undefined);
    return stored;
  }

  override async onRunUpdate(run: Run): Promise<void> {
    safely('span end', () => this.endSpan(run), undefined);
  }

  override async onLLMNewToken(
    run: Run,
    _token: string,
    kwargs?: { chunk?: unknown },
  ): Promise<void> {
    const entry = this.entries.get(run.id);
    if (!entry?.llmCall) return;
    entry.stream ??= new StreamAccumulator();
    const stream = entry.stream;
    safely('stream chunk', () => stream.add(kwargs?.chunk), undefined);
  }

  // LangChain calls the end/error callbacks of runs it started before this handler joined (e.g. after a
  // global registration); BaseTracer throws for those, so they are ignored here.

  override handleLLMEnd(...args: Parameters<BaseTracer['handleLLMEnd']>): Promise<Run> {
    return this.guard(args[1], () => super.handleLLMEnd(...args));
  }

  override handleLLMError(...args: Parameters<BaseTracer['handleLLMError']>): Promise<Run> {
    this.noteError(args[1], args[0]);
    return this.guard(args[1], () => super.handleLLMError(...args));
  }

  override handleChainEnd(...args: Parameters<BaseTracer['handleChainEnd']>): Promise<Run> {
    return this.guard(args[1], () => super.handleChainEnd(...args));
  }

  override handleChainError(...args: Parameters<BaseTracer['handleChainError']>): Promise<Run> {
    this.noteError(args[1], args[0]);
    return this.guard(args[1], () => super.handleChainError(...args));
  }

  override handleToolEnd(...args: Parameters<BaseTracer['handleToolEnd']>): Promise<Run> {
    return this.guard(args[1], () => super.handleToolEnd(...args));
  }

  override handleToolError(...args: Parameters<BaseTracer['handleToolError']>): Promise<Run> {
    this.noteError(args[1], args[0]);
    return this.guard(args[1], () => super.handleToolError(...args));
  }

  override handleRetrieverEnd(...args: Parameters<BaseTracer['handleRetrieverEnd']>): Promise<Run> {
    return this.guard(args[1], () => super.handleRetrieverEnd(...args));
  }

  override handleRetrieverError(
    ...args: Parameters<BaseTracer['handleRetrieverError']>
  ): Promise<Run> {
    this.noteError(args[1], args[0]);
    return this.guard(args[1], () => super.handleRetrieverError(...args));
  }

  override handleLLMNewToken(
    token: string,
    idx: NewTokenIndices,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    fields?: HandleLLMNewTokenCallbackFields,
  ): Promise<Run> {
    return this.guard(runId, () =>
      super.handleLLMNewToken(token, idx, runId, parentRunId, tags, fields),
    );
  }

  private async guard(runId: string, fn: () => Promise<Run>): Promise<Run> {
    // The manager ignores the result; `undefined` stands for "not traced here".
    const untraced = undefined as unknown as Run;
    if (this.getRunById(runId) === undefined) return untraced;
    try {
      return await fn();
    } catch (error) {
      diag.debug('@arclight/instrumentation-langchain: callback failed', error);
      return untraced;
    }
  }

  private noteError(runId: string, error: unknown): void {
    const entry = this.entries.get(runId);
    if (entry) entry.error = error;
  }

  private getOtelTracer(): Tracer {
    this.tracer ??= (this.tracerProvider ?? trace.getTracerProvider()).getTracer(
      INSTRUMENTATION_NAME,
      INSTRUMENTATION_VERSION,
    );
    return this.tracer;
  }

  private startSpan(run: Run): void {
    if (this.entries.has(run.id)) return;
    const parentEntry = run.parent_run_id ? this.entries.get(run.parent_run_id) : undefined;
    const parentSpan = parentEntry?.span;
    if (isHiddenRun(run) && !this.options.includeHidden) {
      this.entries.set(run.id, { span: parentSpan, own: false, llmCall: false });
      if (parentSpan && this.options.propagateContext) runSpans().set(run.id, parentSpan);
      return;
    }
    const parentContext: Context = parentSpan
      ? trace.setSpan(context.active(), parentSpan)
      : context.active();
    const llmCall = this.isLlmCall(run);
    // 'auto': decided when the run ends — by whether an instrumented client claimed the call meanwhile.
    const claim =
      llmCall && this.options.llmCallSpans === 'auto'
        ? expectLlmCall(context.active(), asString(invocationParams(run)?.model))
        : undefined;
    const bag = newAttributeBag();
    writeRunAttributes(bag, run, run.parent_run_id);
    let name: string;
    let request: AttributeBag | undefined;
    if (run.run_type === 'llm') {
      name = modelSpanName(run, llmCall);
      if (claim) {
        request = newAttributeBag();
        writeLlmRequest(request, run, llmSystem(run), this.options.captureContent);
      } else if (llmCall) {
        writeLlmRequest(bag, run, llmSystem(run), this.options.captureContent);
      } else {
        this.writeModelDescription(bag, run);
      }
    } else {
      name = runSpanName(run);
      if (isHiddenRun(run)) bag.set(LangChainAttributes.HIDDEN, true);
      else bag.set(LangChainAttributes.CHAIN_TYPE, this.agentName(run, parentEntry === undefined));
      if (this.options.captureContent) bag.setJson(LangChainAttributes.INPUTS, run.inputs);
    }
    const span = this.getOtelTracer().startSpan(
      name,
      { kind: llmCall ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes: bag.attributes },
      parentContext,
    );
    this.entries.set(run.id, {
      span,
      own: true,
      llmCall,
      ...(claim ? { claim } : {}),
      ...(request ? { request } : {}),
    });
    if (this.options.propagateContext) runSpans().set(run.id, span);
  }

  /** A model span that is not the LLM call: provider, model and (with content) its inputs, no `gen_ai.*`. */
  private writeModelDescription(bag: AttributeBag, run: Run): void {
    const metadata = runMetadata(run);
    bag.set(LangChainAttributes.PROVIDER, asString(metadata.ls_provider));
    bag.set(LangChainAttributes.MODEL, asString(metadata.ls_model_name));
    bag.setJson(LangChainAttributes.INVOCATION_PARAMS, invocationParams(run));
    if (this.options.captureContent) bag.setJson(LangChainAttributes.INPUTS, run.inputs);
  }

  private isLlmCall(run: Run): boolean {
    if (run.run_type !== 'llm') return false;
    switch (this.options.llmCallSpans) {
      case 'always':
        return true;
      case 'never':
        return false;
      default:
        return true;
    }
  }

  /**
   * Settles an 'auto' model span: if an instrumented client claimed the call, the span is a plain model span
   * (renamed, described, no `gen_ai.*`); else it is the LLM-call span and gets the request attributes.
   */
  private settleClaim(entry: SpanEntry, span: Span, run: Run): void {
    const claimed = entry.claim?.close() ?? false;
    if (claimed) {
      entry.llmCall = false;
      span.updateName(modelSpanName(run, false));
      const bag = newAttributeBag();
      this.writeModelDescription(bag, run);
      span.setAttributes(bag.attributes);
      return;
    }
    if (entry.request) span.setAttributes(entry.request.attributes);
    if (isOpenAICompatible(run) && isInstrumented('openai')) {
      warnUninstrumentedClient('LangChain (@langchain/openai)', 'openai');
    }
  }

  private endSpan(run: Run): void {
    const entry = this.entries.get(run.id);
    if (!entry) return;
    this.entries.delete(run.id);
    runSpans().delete(run.id);
    const span = entry.span;
    if (!entry.own || !span) return;
    if (entry.claim) safely('llm-call claim', () => this.settleClaim(entry, span, run), undefined);
    const bag = newAttributeBag();
    if (entry.llmCall) {
      writeLlmResponse(bag, run, entry.stream, this.options.captureContent);
      if (run.error === undefined && !hasTokenIds(bag.attributes)) {
        warnNoTokenIds(
          INSTRUMENTATION_NAME,
          'create the chat model with `modelKwargs: { return_token_ids: true }` and ' +
            '`__includeRawResponse: true` (ChatOpenAI), or instrument its `openai` copy with ' +
            "@arclight/instrumentation-openai (`requestTokenIds: 'auto'`)",
        );
      }
    } else if (this.options.captureContent && run.outputs !== undefined) {
      bag.setJson(LangChainAttributes.OUTPUTS, run.outputs);
    }
    span.setAttributes(bag.attributes);
    if (run.error !== undefined) recordRunError(span, entry.error ?? run.error);
    span.end();
  }
}
