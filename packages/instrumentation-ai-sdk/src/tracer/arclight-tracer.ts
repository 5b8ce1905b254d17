import { AttributeBag, asString, toolCallSpanAttributes } from '@arclight/core';
import {
  type Attributes,
  type Context,
  context,
  type Span,
  type SpanOptions,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { AGENT_NAME, AiAttributes, GenAI, SpanNames } from '../attributes/keys.js';
import type { ResolvedOptions, TracerSource } from '../options.js';
import { safely } from '../safely.js';
import { ModelCallSpan } from '../spans/model-call-span.js';
import { TEXT_OPERATIONS } from '../spans/operation-span.js';
import { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from '../version.js';
import { SdkModelSpan } from './sdk-model-span.js';
import { modelCallEvent, modelCallOfSpanName } from './sdk-span-attributes.js';

export interface RecordingSettings {
  recordInputs: boolean;
  recordOutputs: boolean;
}

type SpanFn = (span: Span) => unknown;

/**
 * The OpenTelemetry `Tracer` handed to `ai` 5 and 6 (`experimental_telemetry: { isEnabled: true, tracer }`).
 * The SDK's spans are written through `source`, with what Arclight's adapter reads: operation spans
 * (`ai.generateText`, …) get `agent.name`; each provider call (`….doGenerate` / `….doStream`) becomes the
 * LLM-call span of the same layout as `ai` 7's integration writes (see {@link SdkModelSpan}); tool
 * executions (`ai.toolCall`) get the `tool.*` keys. Anything else passes through unchanged.
 */
export class ArclightTracer implements Tracer {
  constructor(
    private readonly source: TracerSource,
    private readonly options: ResolvedOptions,
    private readonly recording: RecordingSettings,
  ) {}

  private get tracer(): Tracer {
    return this.source.getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION);
  }

  startSpan(name: string, options: SpanOptions = {}, ctx: Context = context.active()): Span {
    const span = safely('span start', () => this.start(name, options, ctx), undefined);
    return span ?? this.tracer.startSpan(name, options, ctx);
  }

  startActiveSpan<F extends SpanFn>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends SpanFn>(name: string, options: SpanOptions, fn: F): ReturnType<F>;
  startActiveSpan<F extends SpanFn>(
    name: string,
    options: SpanOptions,
    ctx: Context,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends SpanFn>(
    name: string,
    a: F | SpanOptions,
    b?: F | Context,
    c?: F,
  ): ReturnType<F> {
    const fn = (c ?? (typeof b === 'function' ? b : a)) as (span: Span) => ReturnType<F>;
    const options = typeof a === 'function' ? {} : a;
    const parent = b !== undefined && typeof b !== 'function' ? b : context.active();
    const span = this.startSpan(name, options, parent);
    return context.with(trace.setSpan(parent, span), fn, undefined, span);
  }

  private start(name: string, options: SpanOptions, ctx: Context): Span {
    const attributes = options.attributes ?? {};
    const model = modelCallOfSpanName(name);
    if (model) {
      const call = ModelCallSpan.begin(
        this.tracer,
        ctx,
        {
          event: modelCallEvent(attributes, this.recording),
          operationId: model.operationId,
          streaming: model.streaming,
          callId: trace.getSpanContext(ctx)?.spanId ?? '',
        },
        this.options,
      );
      return new SdkModelSpan(call, attributes, model.streaming, ctx);
    }
    let extra: Attributes | undefined;
    let parent = ctx;
    if (TEXT_OPERATIONS.has(name)) extra = this.operationAttributes(attributes);
    else if (name === SpanNames.TOOL_EXECUTION) {
      extra = toolAttributes(attributes);
      // `streamText` runs tools while its model-call span is active: they belong to the operation, as the
      // tools of `generateText` do (and agents called by a tool must not nest inside an LLM call).
      const holder = trace.getSpan(ctx);
      if (holder instanceof SdkModelSpan) parent = holder.parentContext;
    }
    const spanOptions = extra ? { ...options, attributes: { ...attributes, ...extra } } : options;
    return this.tracer.startSpan(name, spanOptions, parent);
  }

  /** `agent.name` (the `agentName` option, else the telemetry `functionId`) of an operation span. */
  private operationAttributes(attributes: Attributes): Attributes {
    const bag = new AttributeBag();
    const agentName = this.options.agentName ?? asString(attributes[AiAttributes.FUNCTION_ID]);
    bag.set(GenAI.OPERATION_NAME, 'invoke_agent');
    bag.set(AGENT_NAME, agentName);
    bag.set(GenAI.AGENT_NAME, agentName);
    return bag.attributes as Attributes;
  }
}

/** The `gen_ai.tool.*` and AgentOps `tool.*` keys of a tool execution, from the SDK's `ai.toolCall.*`. */
function toolAttributes(attributes: Attributes): Attributes {
  const name = asString(attributes[AiAttributes.TOOL_CALL_NAME]);
  const id = asString(attributes[AiAttributes.TOOL_CALL_ID]);
  const args = asString(attributes[AiAttributes.TOOL_CALL_ARGS]);
  const bag = new AttributeBag();
  bag.set(GenAI.OPERATION_NAME, 'execute_tool');
  bag.set(GenAI.TOOL_NAME, name);
  bag.set(GenAI.TOOL_CALL_ID, id);
  bag.merge(toolCallSpanAttributes({ id, name, arguments: args }, true));
  return bag.attributes as Attributes;
}
