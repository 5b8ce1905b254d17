import { TracerTraceToTriplet, type TraceTree } from '@arclight/adapter';
import type { Span } from '@arclight/core';
import { exceptionOf, type SpanKind, spanKind, spanLabel } from './span-kind.js';

/** One row of the trace waterfall: a span at its depth in the (repaired) span tree. */
export interface WaterfallRow {
  span_id: string;
  span: Span;
  depth: number;
  kind: SpanKind;
  label: string;
  /** Start and end as fractions of the trace's time range (0..1). */
  offset: number;
  width: number;
  duration: number | null;
  error: boolean;
}

export interface Waterfall {
  rows: WaterfallRow[];
  start: number | null;
  end: number | null;
  error: string | null;
}

/** The attempt's spans as a tree (the adapter's, with its hierarchy repair), flattened depth first. */
export function buildWaterfall(spans: Span[]): Waterfall {
  if (spans.length === 0) return { rows: [], start: null, end: null, error: null };
  let tree: TraceTree;
  try {
    tree = new TracerTraceToTriplet().buildTree(spans);
  } catch (error) {
    return { rows: [], start: null, end: null, error: (error as Error).message };
  }
  const times = spans
    .flatMap((s) => [s.start_time, s.end_time])
    .filter((t): t is number => t !== null);
  const start = times.length > 0 ? Math.min(...times) : null;
  const end = times.length > 0 ? Math.max(...times) : null;
  const range = start !== null && end !== null && end > start ? end - start : 1;
  const rows: WaterfallRow[] = [];
  const visit = (node: TraceTree, depth: number): void => {
    const span = node.span;
    const kind = spanKind(span);
    // The virtual root the adapter adds for multi-root traces is not a span of the store: skip it.
    const shown = !(kind === 'virtual' && node.id === 'virtual-root');
    if (shown) {
      const s = span.start_time ?? start ?? 0;
      const e = span.end_time ?? s;
      rows.push({
        span_id: node.id,
        span,
        depth,
        kind,
        label: spanLabel(span),
        offset: start === null ? 0 : (s - start) / range,
        width: Math.max(0, (e - s) / range),
        duration:
          span.start_time !== null && span.end_time !== null
            ? span.end_time - span.start_time
            : null,
        error: exceptionOf(span) !== null,
      });
    }
    for (const child of node.children) visit(child, shown ? depth + 1 : depth);
  };
  visit(tree, 0);
  return { rows, start, end, error: null };
}
