import { asRecord, asString, type JsonRecord } from '@arclight/core';
import { type Context, context, type Span, type Tracer, trace } from '@opentelemetry/api';
import type { Telemetry } from 'ai';
import { AiTelemetryApiError, installedAiVersion, telemetryPathFor } from './ai-version.js';
import { ArclightAttributes } from './attributes/keys.js';
import {
  type ArclightTelemetryOptions,
  type ResolvedOptions,
  resolveOptions,
  type TracerSource,
} from './options.js';
import { safely } from './safely.js';
import { recordError } from './spans/errors.js';
import { outcomeFromGenerateResult } from './spans/model-call-outcome.js';
import { type ModelCallEnd, ModelCallSpan } from './spans/model-call-span.js';
import { objectStepOutcome } from './spans/object-step.js';
import { observeStreamResult } from './spans/observe-stream.js';
import {
  isStreamingOperation,
  recordOperationEnd,
  startOperationSpan,
  TEXT_OPERATIONS,
} from './spans/operation-span.js';
import { endToolSpan, startToolSpan, type ToolSpan } from './spans/tool-span.js';
import { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from './version.js';

/** What is open for one AI SDK call (`callId`). */
interface CallState {
  operationId: string;
  span?: Span;
  /** Parent of the call's model and tool spans: the operation span's context. */
  context: Context;
  models: Set<ModelCallSpan>;
  tools: Map<string, ToolSpan>;
  objectModel?: ModelCallSpan;
}

/**
 * An AI SDK telemetry integration (`Telemetry` of `ai` ≥ 7) that records Arclight spans: one span per
 * operation (`ai.generateText`, … with `agent.name`), one per provider call (the LLM-call span, with
 * `gen_ai.*` attributes and token ids), one per tool execution (`ai.toolCall`). Model calls and tool
 * executions run inside their span's context, so nested calls (an agent called by a tool, an instrumented
 * HTTP client) become children. Nothing here ever throws into the AI SDK.
 */
export class ArclightTelemetry implements Telemetry {
  private readonly options: ResolvedOptions;
  private readonly calls = new Map<string, CallState>();

  constructor(
    private readonly source: TracerSource,
    options: ArclightTelemetryOptions = {},
  ) {
    const version = options.aiVersion ?? installedAiVersion();
    if (telemetryPathFor(version) !== 'integration') throw new AiTelemetryApiError(version ?? '');
    this.options = resolveOptions(options);
  }

  private get tracer(): Tracer {
    return this.source.getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION);
  }

  onStart(event: unknown): void {
    safely(
      'operation start',
      () => {
        const record = asRecord(event) ?? {};
        const operationId = asString(record.operationId) ?? '';
        const callId = asString(record.callId);
        if (!TEXT_OPERATIONS.has(operationId) || callId === undefined) return;
        const parent = context.active();
        const span = startOperationSpan(this.tracer, parent, operationId, record, this.options);
        this.calls.set(callId, {
          operationId,
          span,
          context: contextWith(parent, span),
          models: new Set(),
          tools: new Map(),
        });
      },
      undefined,
    );
  }

  onEnd(event: unknown): void {
    safely(
      'operation end',
      () => {
        const record = asRecord(event) ?? {};
        this.finishCall(asString(record.callId), { partial: 'abandoned' }, (span) =>
          recordOperationEnd(span, record),
        );
      },
      undefined,
    );
  }

  onError(event: unknown): void {
    safely(
      'operation error',
      () => {
        const record = asRecord(event) ?? {};
        const error = record.error;
        this.finishCall(asString(record.callId), { error }, (span) => recordError(span, error));
      },
      undefined,
    );
  }

  onAbort(event: unknown): void {
    safely(
      'operation abort',
      () => {
        const record = asRecord(event) ?? {};
        this.finishCall(asString(record.callId), { partial: 'cancelled' }, (span) =>
          span.setAttribute(ArclightAttributes.ABORTED, true),
        );
      },
      undefined,
    );
  }

  /** Runs one provider call (one attempt) inside its model-call span. */
  async executeLanguageModelCall<T>(options: {
    callId: string;
    execute: () => PromiseLike<T>;
  }): Promise<T> {
    const call = safely('model call start', () => this.beginModelCall(options), undefined);
    if (!call) return await options.execute();
    let result: T;
    try {
      result = await context.with(call.context, options.execute);
    } catch (error) {
      call.end({ error });
      throw error;
    }
    return safely('model call result', () => observeResult(call, result), result);
  }

  /** Runs a tool's `execute` inside its tool span, so nested AI SDK calls become its children. */
  async executeTool<T>(options: {
    callId: string;
    toolCallId: string;
    execute: () => PromiseLike<T>;
  }): Promise<T> {
    const tool = this.calls.get(options.callId)?.tools.get(options.toolCallId);
    if (!tool) return await options.execute();
    return await context.with(tool.context, options.execute);
  }

  onToolExecutionStart(event: unknown): void {
    safely(
      'tool start',
      () => {
        const record = asRecord(event) ?? {};
        const toolCallId = asString(asRecord(record.toolCall)?.toolCallId);
        if (toolCallId === undefined) return;
        const state = this.stateFor(asString(record.callId) ?? '');
        state.tools.set(toolCallId, startToolSpan(this.tracer, state.context, record));
      },
      undefined,
    );
  }

  onToolExecutionEnd(event: unknown): void {
    safely(
      'tool end',
      () => {
        const record = asRecord(event) ?? {};
        const state = this.calls.get(asString(record.callId) ?? '');
        const toolCallId = asString(asRecord(record.toolCall)?.toolCallId) ?? '';
        const tool = state?.tools.get(toolCallId);
        if (!state || !tool) return;
        state.tools.delete(toolCallId);
        endToolSpan(tool, record);
      },
      undefined,
    );
  }

  /** `generateObject` / `streamObject` (deprecated) call the model without `executeLanguageModelCall`. */
  onObjectStepStart(event: unknown): void {
    safely(
      'object step start',
      () => {
        const record = asRecord(event) ?? {};
        const callId = asString(record.callId) ?? '';
        const state = this.stateFor(callId);
        const call = ModelCallSpan.begin(
          this.tracer,
          state.context,
          {
            event: { ...record, messages: record.promptMessages },
            operationId: state.operationId,
            streaming: isStreamingOperation(state.operationId),
            callId,
          },
          this.options,
        );
        state.models.add(call);
        state.objectModel = call;
      },
      undefined,
    );
  }

  onObjectStepEnd(event: unknown): void {
    safely(
      'object step end',
      () => {
        const record = asRecord(event) ?? {};
        const state = this.calls.get(asString(record.callId) ?? '');
        const call = state?.objectModel;
        if (!state || !call) return;
        state.objectModel = undefined;
        state.models.delete(call);
        call.end({
          outcome: objectStepOutcome(record),
          requestBody: asRecord(record.request)?.body,
        });
      },
      undefined,
    );
  }

  private beginModelCall(options: { callId: string }): ModelCallSpan {
    const event = options as unknown as JsonRecord;
    const state = this.stateFor(options.callId);
    const call = ModelCallSpan.begin(
      this.tracer,
      state.context,
      {
        event,
        operationId: state.operationId,
        streaming: isStreamingOperation(state.operationId),
        callId: options.callId,
      },
      this.options,
    );
    state.models.add(call);
    return call;
  }

  /** The state of `callId`; a call whose start was not seen gets one parented to the active context. */
  private stateFor(callId: string): CallState {
    let state = this.calls.get(callId);
    if (!state) {
      state = {
        operationId: 'ai.generateText',
        context: context.active(),
        models: new Set(),
        tools: new Map(),
      };
      this.calls.set(callId, state);
    }
    return state;
  }

  /** Ends what the call left open (model calls with `open`, tools) and then its operation span. */
  private finishCall(
    callId: string | undefined,
    open: ModelCallEnd,
    record: (span: Span) => void,
  ): void {
    if (callId === undefined) return;
    const state = this.calls.get(callId);
    if (!state) return;
    this.calls.delete(callId);
    for (const call of state.models) call.end(open);
    for (const tool of state.tools.values()) {
      safely('tool end', () => tool.span.end(), undefined);
    }
    if (state.span) {
      const span = state.span;
      safely('operation attributes', () => record(span), undefined);
      span.end();
    }
  }
}

function contextWith(parent: Context, span: Span): Context {
  return trace.setSpan(parent, span);
}

/** Ends a generate call's span with its outcome, or observes a stream call's stream. */
function observeResult<T>(call: ModelCallSpan, result: T): T {
  const record = asRecord(result);
  if (record && 'stream' in record) return observeStreamResult(record, call) as T;
  if (record) {
    call.end({
      outcome: outcomeFromGenerateResult(record),
      requestBody: asRecord(record.request)?.body,
      streaming: false,
    });
  } else {
    call.end({});
  }
  return result;
}
