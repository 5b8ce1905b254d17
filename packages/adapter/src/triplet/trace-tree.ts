import {
  AGL_OPERATION,
  AGL_REWARD,
  createSpan,
  getRewardValue,
  LightningSpanAttributes,
  type Span,
  ValidationError,
} from '@arclight/core';
import { agentNameOf } from './agent-name.js';
import { lessOrEqual } from './time-order.js';

/** Id of the synthetic root upstream adds when a trace has several roots. */
export const VIRTUAL_ROOT_ID = 'virtual-root';

/**
 * Upstream `TraceTree` (`adapter/triplet.py`): a span and its children. Children keep the order of the
 * input spans. Missing parents and the synthetic multi-root root are backed by virtual spans (name
 * `agentlightning.virtual` / `virtual-root`, empty attributes).
 */
export class TraceTree {
  private rewardRead: { value: unknown } | undefined;

  constructor(
    readonly id: string,
    readonly span: Span,
    readonly children: TraceTree[] = [],
  ) {}

  get startTime(): number | null {
    return this.span.start_time;
  }

  get endTime(): number | null {
    return this.span.end_time;
  }

  /** Depth-first, pre-order: this node, then each child's subtree in order. */
  traverse(): TraceTree[] {
    const out: TraceTree[] = [];
    const stack: TraceTree[] = [this];
    while (stack.length > 0) {
      const node = stack.pop()!;
      out.push(node);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
    return out;
  }

  findId(id: string): TraceTree | undefined {
    return this.traverse().find((node) => node.id === id);
  }

  /** See {@link agentNameOf}; `undefined` when the span names no agent. */
  agentName(): unknown {
    return agentNameOf(this.span);
  }

  /** Upstream `get_reward_value` of the span (read once per node). */
  rewardValue(): unknown {
    this.rewardRead ??= { value: getRewardValue(this.span) };
    return this.rewardRead.value;
  }

  /**
   * Upstream `TraceTree.is_reward_span`: the span carries a reward, or it is an `agentlightning.operation`
   * span whose `agentlightning.operation.name` is `agentlightning.reward` (v0.3 reward operations).
   */
  isRewardSpan(): boolean {
    if (this.rewardValue() !== null) return true;
    const attributes = this.span.attributes ?? {};
    return (
      this.span.name === AGL_OPERATION &&
      Object.hasOwn(attributes, LightningSpanAttributes.OPERATION_NAME) &&
      attributes[LightningSpanAttributes.OPERATION_NAME] === AGL_REWARD
    );
  }

  /** Upstream `names_tuple`: `[name (+ " [agent]"), children]`, for tests and debugging. */
  namesTuple(): [string, unknown[]] {
    const agent = this.agentName();
    const name = agent === undefined ? this.span.name : `${this.span.name} [${String(agent)}]`;
    return [name, this.children.map((child) => child.namesTuple())];
  }

  toJSON(): { id: string; span: Span; children: unknown[] } {
    return { id: this.id, span: this.span, children: this.children.map((c) => c.toJSON()) };
  }

  /** Upstream `TraceTree.from_spans`; see {@link buildTraceTree}. */
  static fromSpans(spans: readonly Span[]): TraceTree {
    return buildTraceTree(spans);
  }

  /** Upstream `repair_hierarchy`; see {@link repairHierarchy}. */
  repairHierarchy(): void {
    repairHierarchy(this);
  }
}

/**
 * Upstream `TraceTree.from_spans`. Spans are indexed by `span_id` (a repeated id: the later span wins);
 * roots are the spans without `parent_id`, then every referenced parent that is not among the spans — a
 * virtual span spanning its children's times stands in for it. More than one root → a synthetic
 * `virtual-root` whose start is the first root's start and whose end is the last root's end.
 *
 * Upstream collects the missing parents in a Python `set`, so their order among the roots depends on
 * Python's per-process string hashing; here they follow the order in which the spans first reference them.
 */
export function buildTraceTree(spans: readonly Span[]): TraceTree {
  if (spans.length === 0) throw new ValidationError('spans: no spans to build a trace tree from');
  const byId = new Map<string, Span>();
  const childIds = new Map<string, string[]>();
  const rootIds: string[] = [];
  for (const span of spans) {
    byId.set(span.span_id, span);
    if (span.parent_id === null || span.parent_id === undefined) rootIds.push(span.span_id);
    else {
      const list = childIds.get(span.parent_id);
      if (list) list.push(span.span_id);
      else childIds.set(span.parent_id, [span.span_id]);
    }
  }
  for (const parentId of childIds.keys()) if (!byId.has(parentId)) rootIds.push(parentId);

  const onPath = new Set<string>();
  const visit = (nodeId: string): TraceTree => {
    if (onPath.has(nodeId))
      throw new ValidationError(`spans: parent links form a cycle at span '${nodeId}'`);
    onPath.add(nodeId);
    const children = (childIds.get(nodeId) ?? []).map(visit);
    onPath.delete(nodeId);
    const span = byId.get(nodeId);
    if (span) return new TraceTree(nodeId, span, children);
    return new TraceTree(nodeId, virtualParent(nodeId, children), children);
  };

  if (rootIds.length === 0)
    throw new ValidationError('spans: no root span (every span has a parent)');
  if (rootIds.length === 1) return visit(rootIds[0]!);
  const roots = rootIds.map(visit);
  const first = roots[0]!.span;
  const root = createSpan({
    rollout_id: first.rollout_id,
    attempt_id: first.attempt_id,
    sequence_id: first.sequence_id,
    trace_id: first.trace_id,
    span_id: null,
    parent_id: null,
    name: VIRTUAL_ROOT_ID,
    attributes: {},
    start_time: first.start_time,
    end_time: roots[roots.length - 1]!.span.end_time,
  });
  return new TraceTree(VIRTUAL_ROOT_ID, root, roots);
}

function virtualParent(nodeId: string, children: TraceTree[]): Span {
  const starts = children.map((c) => c.startTime).filter((t): t is number => t !== null);
  const ends = children.map((c) => c.endTime).filter((t): t is number => t !== null);
  if (starts.length === 0 || ends.length === 0) {
    throw new ValidationError(
      `spans: missing parent '${nodeId}' cannot be placed: its children have no ${starts.length === 0 ? 'start' : 'end'} times`,
    );
  }
  const first = children[0]!.span;
  return createSpan({
    rollout_id: first.rollout_id,
    attempt_id: first.attempt_id,
    sequence_id: first.sequence_id,
    trace_id: first.trace_id,
    span_id: nodeId,
    parent_id: null,
    attributes: {},
    start_time: Math.min(...starts),
    end_time: Math.max(...ends),
  });
}

/**
 * Upstream `repair_hierarchy`. Follows single-child chains down to the first node with several children,
 * then moves each of that node's direct children (in order, until one child is left) under the node that
 * most tightly encloses it in time — the node `n` (anywhere in the current tree, other than the node being
 * moved and the root) with `n.start <= child.start`, `n.end >= child.end` and the smallest positive
 * `(n.end - child.end) + (child.start - n.start)`; the first such node in depth-first order wins ties.
 * This puts LLM spans that frameworks emit at top level back under the agent that made them. Unlike upstream,
 * a child is never moved under one of its own descendants (which would drop that subtree from the tree).
 */
export function repairHierarchy(tree: TraceTree): void {
  let root = tree;
  while (root.children.length === 1) root = root.children[0]!;
  for (const node of [...root.children]) {
    if (root.children.length === 1) break;
    let closest: TraceTree | undefined;
    let closestDelta = Number.POSITIVE_INFINITY;
    // Not under its own descendants (upstream would: a span that ended before its children — e.g. a trace
    // root the SDK closes early — would then hang under its own child, cut off from the tree with them).
    const own = new Set(node.traverse());
    for (const candidate of root.traverse()) {
      if (own.has(candidate) || candidate === root) continue;
      const what = () => `start/end time of span '${candidate.id}' or '${node.id}'`;
      if (
        lessOrEqual(candidate.startTime, node.startTime, what) &&
        lessOrEqual(node.endTime, candidate.endTime, what)
      ) {
        const delta =
          (candidate.endTime as number) -
          (node.endTime as number) +
          (node.startTime as number) -
          (candidate.startTime as number);
        if (delta > 0 && delta < closestDelta) {
          closestDelta = delta;
          closest = candidate;
        }
      }
    }
    if (closest) {
      root.children.splice(root.children.indexOf(node), 1);
      closest.children.push(node);
    }
  }
}
