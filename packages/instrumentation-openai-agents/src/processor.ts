import {
  asRecord,
  asString,
  isInstrumented,
  type JsonRecord,
  type ToolDefinition,
  WarningCodes,
  warnOnce,
} from '@arclight/core';
import {
  expectLlmCall,
  hasTokenIds,
  type LlmCallClaim,
  warnNoTokenIds,
  warnUninstrumentedClient,
  writeToolCallSpans,
} from '@arclight/instrumentation';
import { getActiveTracer } from '@arclight/otel';
import type { TracingProcessor } from '@openai/agents';
import { context, type Tracer, trace } from '@opentelemetry/api';
import { newAttributeBag } from './attribute-bag.js';
import { captureAttribution, runAttributed } from './attribution.js';
import { BoundedMap } from './bounded-map.js';
import { isObservingChatRequestTools, requestToolsIn } from './chat-request-tools.js';
import { AgentsAttributes } from './keys.js';
import {
  isModelSpanType,
  spanKindOf,
  spanNameOf,
  writeDataAttributes,
} from './mapping/span-data.js';
import { endUnfinished, type OpenSpan, recordSpanError } from './open-span.js';
import {
  DEFAULT_MAX_SPANS_IN_FLIGHT,
  DEFAULT_MAX_TRACES_IN_FLIGHT,
  type LightningTracingProcessorOptions,
  llmCallSpansActive,
  resolveProvider,
} from './options.js';
import { safely } from './safely.js';
import type { AgentsSpanLike, AgentsTraceLike } from './sdk-types.js';
import { endMillis, millisToHrTime, startMillis } from './time.js';
import { TraceRoots } from './trace-roots.js';
import { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from './version.js';

interface SpanEntry extends OpenSpan {
  readonly traceId: string;
  readonly topLevel: boolean;
  /** Whether the span is (or, while `claim` is open, may become) the LLM-call span. */
  llmCall: boolean;
  /** `llmCallSpans: 'auto'`: the claim an instrumented `openai` client takes when it records the call. */
  readonly claim?: LlmCallClaim;
  readonly type: string;
  /** The tools the Chat Completions request of a generation span offered (when the model is observed). */
  readonly requestTools?: ToolDefinition[];
}

const RESOLVED = Promise.resolve();

/**
 * A `TracingProcessor` for the OpenAI Agents SDK that turns its traces and spans into OpenTelemetry spans
 * of a `LightningTracer` (or any tracer provider): one `openai_agents.trace` root per SDK trace, then one
 * span per SDK span under its SDK parent — agents (`agent.name`), turns, generations/responses (LLM calls
 * with `gen_ai.*` and token ids), functions (tools), handoffs, guardrails, custom spans. Install it with
 * `addTraceProcessor(processor)` (next to the SDK's exporter) or `setTraceProcessors([processor])`
 * (instead of it). Every callback does its work synchronously (so the caller's `traceContext` applies),
 * never throws or rejects, and at most `maxSpansInFlight` spans are kept open.
 */
export class LightningTracingProcessor implements TracingProcessor {
  private readonly roots: TraceRoots;
  private readonly spans: BoundedMap<string, SpanEntry>;
  /** Ids of spans already ended (by the SDK, eviction or shutdown): late or repeated calls are ignored. */
  private readonly closed: BoundedMap<string, true>;
  private enabled = true;

  constructor(private readonly options: LightningTracingProcessorOptions = {}) {
    const maxSpans = options.maxSpansInFlight ?? DEFAULT_MAX_SPANS_IN_FLIGHT;
    this.spans = new BoundedMap(maxSpans, (id, entry) => this.abandon(id, entry));
    this.closed = new BoundedMap(maxSpans);
    this.roots = new TraceRoots(options.maxTracesInFlight ?? DEFAULT_MAX_TRACES_IN_FLIGHT);
  }

  /** Stops recording new traces and spans (the SDK cannot remove one processor); `enable()` resumes. */
  disable(): void {
    this.enabled = false;
  }

  enable(): void {
    this.enabled = true;
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  /** SDK spans started and not yet ended. */
  get spansInFlight(): number {
    return this.spans.size;
  }

  start(): void {}

  onTraceStart(sdkTrace: AgentsTraceLike): Promise<void> {
    if (this.enabled) safely('onTraceStart', () => this.roots.start(sdkTrace, this.newTracer()));
    return RESOLVED;
  }

  onTraceEnd(sdkTrace: AgentsTraceLike): Promise<void> {
    safely('onTraceEnd', () => this.roots.end(sdkTrace));
    return RESOLVED;
  }

  onSpanStart(span: AgentsSpanLike): Promise<void> {
    if (this.enabled) safely('onSpanStart', () => this.startSpan(span));
    return RESOLVED;
  }

  onSpanEnd(span: AgentsSpanLike): Promise<void> {
    safely('onSpanEnd', () => this.endSpan(span));
    return RESOLVED;
  }

  /** Ends whatever is still open (marked `openai_agents.unfinished`). Called by `setTraceProcessors`. */
  shutdown(_timeout?: number): Promise<void> {
    safely('shutdown', () => {
      for (const [id, entry] of this.spans.drain()) this.abandon(id, entry);
      this.roots.endAll();
    });
    return RESOLVED;
  }

  /** Flushes the tracer provider when it can. */
  forceFlush(): Promise<void> {
    const provider = safely('forceFlush', () => resolveProvider(this.options, getActiveTracer)) as
      | { forceFlush?: () => Promise<unknown> }
      | undefined;
    if (typeof provider?.forceFlush !== 'function') return RESOLVED;
    return Promise.resolve()
      .then(() => provider.forceFlush?.())
      .then(
        () => undefined,
        (error: unknown) => {
          safely('forceFlush', () => {
            throw error;
          });
        },
      );
  }

  private startSpan(span: AgentsSpanLike): void {
    const spanId = asString(span?.spanId);
    if (spanId === undefined || this.spans.get(spanId) || this.closed.get(spanId)) return;
    const traceId = asString(span.traceId) ?? '';
    const data = spanDataOf(span);
    const type = asString(data.type) ?? 'unknown';
    const parentId = asString(span.parentId);
    const parent = (parentId && this.spans.get(parentId)) || this.roots.get(traceId);
    const setting = this.options.llmCallSpans ?? 'auto';
    const llmCall = isModelSpanType(type) && llmCallSpansActive(setting);
    // 'auto': decided when the span ends — by whether an instrumented client claimed the call meanwhile (the
    // SDK calls the model in the context active now).
    const claim =
      llmCall && setting === 'auto'
        ? expectLlmCall(context.active(), asString(data.model))
        : undefined;
    const tracer = parent?.tracer ?? this.newTracer();
    const attribution = captureAttribution(parent?.attribution);
    const parentContext = parent?.context ?? context.active();
    const requestTools = type === 'generation' ? requestToolsIn(context.active()) : undefined;

    const bag = newAttributeBag();
    bag.set(AgentsAttributes.SPAN_ID, spanId);
    bag.set(AgentsAttributes.PARENT_ID, parentId);
    bag.set(AgentsAttributes.TRACE_ID, traceId);
    // A pending claim starts as a model summary; the LLM-call attributes are written at the end.
    writeDataAttributes(bag, data, {
      llmCall: llmCall && !claim,
      captureContent: this.captureContent,
    });
    const start = startMillis(span.startedAt);
    const otel = runAttributed(attribution, () =>
      tracer.startSpan(
        spanNameOf(type, llmCall),
        {
          kind: spanKindOf(type, llmCall),
          startTime: millisToHrTime(start),
          attributes: bag.attributes,
        },
        parentContext,
      ),
    );
    this.spans.set(spanId, {
      otel,
      context: trace.setSpan(parentContext, otel),
      tracer,
      attribution,
      startMillis: start,
      traceId,
      topLevel: parentId === undefined,
      llmCall,
      type,
      ...(claim ? { claim } : {}),
      ...(requestTools ? { requestTools } : {}),
    });
    this.roots.spanStarted(traceId);
  }

  private endSpan(span: AgentsSpanLike): void {
    const spanId = asString(span?.spanId);
    if (spanId === undefined || this.closed.get(spanId)) return;
    // A span whose start was not seen (processor installed mid-run, callbacks out of order) starts here.
    if (!this.spans.get(spanId) && this.enabled) this.startSpan(span);
    const entry = this.spans.take(spanId);
    if (!entry) return;
    this.closed.set(spanId, true);
    if (entry.claim) safely('llm-call claim', () => this.settleClaim(entry));
    const bag = newAttributeBag();
    const calls =
      safely('span attributes', () =>
        writeDataAttributes(bag, spanDataOf(span), {
          llmCall: entry.llmCall,
          captureContent: this.captureContent,
          requestTools: entry.requestTools,
        }),
      ) ?? [];
    entry.otel.setAttributes(bag.attributes);
    const error = safely('span error', () => recordSpanError(entry.otel, span.error));
    if (entry.llmCall && !error && !hasTokenIds(bag.attributes)) {
      warnNoTokenIds(
        INSTRUMENTATION_NAME,
        "instrument the SDK's `openai` client with @arclight/instrumentation-openai " +
          "(`requestTokenIds: 'auto'`; ESM: `node --import @arclight/instrumentation-openai/register`), or " +
          "set `providerData: { return_token_ids: true }` in the agent's `modelSettings`",
      );
    }
    if (entry.llmCall && entry.type === 'generation' && !isObservingChatRequestTools()) {
      warnNoRequestTools();
    }
    const end = endMillis(span.endedAt, entry.startMillis);
    if (entry.llmCall && (this.options.toolCallSpans ?? true) && calls.length > 0) {
      const time = millisToHrTime(end);
      safely('tool call spans', () =>
        runAttributed(entry.attribution, () =>
          writeToolCallSpans(
            entry.tracer,
            entry.context,
            entry.otel,
            calls,
            this.captureContent,
            time,
          ),
        ),
      );
    }
    entry.otel.end(millisToHrTime(end));
    this.roots.spanEnded(entry.traceId, end, entry.topLevel ? error : undefined);
  }

  /**
   * Settles an 'auto' model span: claimed by an instrumented client — a plain model span (renamed); else the
   * LLM-call span (its attributes are written by `endSpan`).
   */
  private settleClaim(entry: SpanEntry): void {
    if (entry.claim?.close()) {
      entry.llmCall = false;
      entry.otel.updateName(spanNameOf(entry.type, false));
      return;
    }
    if (isInstrumented('openai')) warnUninstrumentedClient('the OpenAI Agents SDK', 'openai');
  }

  private abandon(spanId: string, entry: SpanEntry): void {
    this.closed.set(spanId, true);
    safely('abandon span', () => {
      endUnfinished(entry.otel);
      this.roots.spanEnded(entry.traceId, Date.now(), undefined);
    });
  }

  private get captureContent(): boolean {
    return this.options.captureContent ?? true;
  }

  private newTracer(): Tracer {
    return resolveProvider(this.options, getActiveTracer).getTracer(
      INSTRUMENTATION_NAME,
      INSTRUMENTATION_VERSION,
    );
  }
}

function spanDataOf(span: AgentsSpanLike): JsonRecord {
  return asRecord(span?.spanData) ?? { type: 'unknown' };
}

/**
 * A Chat Completions LLM-call span whose model is not observed records no tool definitions (the SDK's
 * generation span data has none), so exported rows would carry no `tools`: says so once, with the fix.
 */
function warnNoRequestTools(): void {
  warnOnce(
    WarningCodes.NO_TOOL_DEFINITIONS,
    'the OpenAI Agents SDK recorded a Chat Completions LLM call without the tools its request offered (the ' +
      "SDK's generation spans do not carry them), so exported rows will have no `tools`. Fix: install with " +
      '`instrumentOpenAIAgents(agents)` (pass the `@openai/agents` module), or call ' +
      '`observeChatRequestTools(agents.OpenAIChatCompletionsModel)` next to your own processor, or instrument ' +
      'the `openai` client with @arclight/instrumentation-openai (its span records the request as sent).',
    INSTRUMENTATION_NAME,
  );
}
