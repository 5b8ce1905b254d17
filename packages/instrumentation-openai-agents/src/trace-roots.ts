import { type AttributeBag, asRecord, asString } from '@arclight/core';
import { context, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { newAttributeBag } from './attribute-bag.js';
import { captureAttribution } from './attribution.js';
import { BoundedMap } from './bounded-map.js';
import { AgentsAttributes, AgentsSpanNames } from './keys.js';
import { endUnfinished, type OpenSpan } from './open-span.js';
import { safely } from './safely.js';
import type { AgentsTraceLike } from './sdk-types.js';
import { millisToHrTime } from './time.js';

interface TraceRoot extends OpenSpan {
  /** Latest end of a span of this trace (the root ends no earlier). */
  latestEnd: number;
  /** SDK spans of this trace started and not yet ended. */
  open: number;
  /** The SDK ended the trace while spans of it were open: the root ends with the last of them. */
  ending: boolean;
}

/**
 * The `openai_agents.trace` root spans, one per SDK trace. The SDK ends a trace only when its run
 * succeeds (or a stream finishes): when `run()` throws, `onTraceEnd` never comes. So when a top-level span
 * of the trace ends with an error and nothing of the trace is still open, the root is ended there (status
 * ERROR) — else it would never be exported and would pin the rollout's records in memory. Such roots stay
 * known for a while, so that later spans of the same trace still nest under them. And when the SDK ends a
 * trace while spans of it are still open (`@openai/agents` 0.0.x does for streamed runs, at once), the root
 * stays open until the last of them ends: a root ending before its children would let time-based hierarchy
 * repair (the adapter's) mistake it for a child of its own agent.
 */
export class TraceRoots {
  private readonly live: BoundedMap<string, TraceRoot>;
  private readonly closedEarly: BoundedMap<string, TraceRoot>;

  constructor(limit: number) {
    this.live = new BoundedMap(limit, (_, root) =>
      safely('evict trace', () => endUnfinished(root.otel)),
    );
    this.closedEarly = new BoundedMap(limit);
  }

  /** The root of `traceId`, open or closed early. */
  get(traceId: string): OpenSpan | undefined {
    return this.live.get(traceId) ?? this.closedEarly.get(traceId);
  }

  start(sdkTrace: AgentsTraceLike, tracer: Tracer): void {
    const traceId = asString(sdkTrace?.traceId);
    if (traceId === undefined || this.live.get(traceId)) return;
    this.closedEarly.take(traceId);
    const bag = newAttributeBag();
    bag.set(AgentsAttributes.TRACE_ID, traceId);
    writeTraceAttributes(bag, sdkTrace);
    const start = Date.now();
    const parentContext = context.active();
    const otel = tracer.startSpan(
      AgentsSpanNames.TRACE,
      { kind: SpanKind.INTERNAL, startTime: millisToHrTime(start), attributes: bag.attributes },
      parentContext,
    );
    this.live.set(traceId, {
      otel,
      context: trace.setSpan(parentContext, otel),
      tracer,
      attribution: captureAttribution(),
      startMillis: start,
      latestEnd: start,
      open: 0,
      ending: false,
    });
  }

  end(sdkTrace: AgentsTraceLike): void {
    const traceId = asString(sdkTrace?.traceId);
    if (traceId === undefined) return;
    const root = this.live.get(traceId);
    this.closedEarly.take(traceId);
    if (!root) return;
    const bag = newAttributeBag();
    writeTraceAttributes(bag, sdkTrace);
    root.otel.setAttributes(bag.attributes);
    root.latestEnd = Math.max(Date.now(), root.latestEnd);
    if (root.open > 0) root.ending = true;
    else this.finish(traceId, root, false);
  }

  spanStarted(traceId: string): void {
    const root = this.live.get(traceId);
    if (root) root.open += 1;
  }

  /** A span of the trace ended at `end`; `topLevelError` is the message of a failed top-level span. */
  spanEnded(traceId: string, end: number, topLevelError: string | undefined): void {
    const root = this.live.get(traceId);
    if (!root) return;
    root.open = Math.max(0, root.open - 1);
    root.latestEnd = Math.max(root.latestEnd, end);
    if (root.open > 0 || (!root.ending && topLevelError === undefined)) return;
    if (!root.ending) root.otel.setStatus({ code: SpanStatusCode.ERROR, message: topLevelError });
    this.finish(traceId, root, true);
  }

  /** Ends the root at its latest end; `keep`: later spans of the trace still nest under it. */
  private finish(traceId: string, root: TraceRoot, keep: boolean): void {
    this.live.take(traceId);
    if (keep) this.closedEarly.set(traceId, root);
    root.otel.end(millisToHrTime(root.latestEnd));
  }

  /** Ends every open root (marked unfinished). */
  endAll(): void {
    for (const [, root] of this.live.drain()) endUnfinished(root.otel);
    this.closedEarly.drain();
  }
}

function writeTraceAttributes(bag: AttributeBag, sdkTrace: AgentsTraceLike): void {
  bag.set(AgentsAttributes.TRACE_NAME, asString(sdkTrace.name));
  bag.set(AgentsAttributes.GROUP_ID, asString(sdkTrace.groupId));
  const metadata = asRecord(sdkTrace.metadata);
  if (!metadata) return;
  for (const [key, value] of Object.entries(metadata)) {
    bag.set(`${AgentsAttributes.TRACE_METADATA}.${key}`, value);
  }
}
