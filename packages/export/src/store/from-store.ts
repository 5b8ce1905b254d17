import { TracerTraceToTriplet, type TraceToTripletOptions } from '@arclight/adapter';
import {
  type AttemptedRollout,
  isAttemptedRollout,
  LLM_CALL_SPAN_MATCH,
  type Rollout,
  type Span,
  type Triplet,
  ValidationError,
} from '@arclight/core';
import type { LightningStore } from '@arclight/store';
import { type ExportOptions, ExportWriter } from '../export-writer.js';
import type { ExportRecord } from '../record.js';
import type { ExportSummary } from '../summary.js';
import { taskIdOf } from '../task-id.js';
import { compileSelection, type RolloutSelection } from './rollout-filter.js';
import { attemptSpans, rolloutPages, rolloutsById } from './store-pages.js';

/** Anything that turns one attempt's spans into triplets (default: `TracerTraceToTriplet`). */
export interface TripletAdapter {
  adapt(spans: readonly Span[]): Triplet[];
}

export interface ExportProgress {
  /** Rollouts read so far (exported or skipped). */
  rollouts_done: number;
  /** Rollouts in the store (as of the latest page). */
  rollouts_total: number;
  rows: number;
}

export interface ExportFromStoreOptions extends ExportOptions, RolloutSelection {
  /** Options of the default adapter (`llmCallMatch`, `agentMatch`, `rewardMatch`, …), or an adapter. */
  adapter?: TraceToTripletOptions | TripletAdapter;
  /** Rollouts per `queryRollouts` page (default 100). */
  pageSize?: number;
  /** Spans per `querySpans` page (default 1000). */
  spanPageSize?: number;
  /**
   * Rollouts whose spans are requested while an earlier one is adapted and written (default 4; 0 reads them one
   * at a time). Against a server this overlaps the round trips with the export's own work; memory holds the
   * spans of at most this many rollouts more.
   */
  readAhead?: number;
  onProgress?: (progress: ExportProgress) => void;
  /** Stops the export between rollouts: the partial file is deleted and the promise rejects with the reason. */
  signal?: AbortSignal;
}

/**
 * The export's default `llmCallMatch`: core's `LLM_CALL_SPAN_MATCH`, the chat (`openai.chat.completion`), Responses
 * (`openai.responses.create`) and legacy completions (`openai.completion`) span names the integrations write (the
 * adapter's own default matches chat completions only, as upstream's).
 */
export const EXPORT_LLM_CALL_MATCH: RegExp = LLM_CALL_SPAN_MATCH;

const isAdapter = (value: unknown): value is TripletAdapter =>
  typeof (value as TripletAdapter | undefined)?.adapt === 'function';

/** The adapter of `options.adapter`: the given one, or `TracerTraceToTriplet` with the export's defaults. */
export function adapterOf(
  adapter: TraceToTripletOptions | TripletAdapter | undefined,
): TripletAdapter {
  return isAdapter(adapter)
    ? adapter
    : new TracerTraceToTriplet({ llmCallMatch: EXPORT_LLM_CALL_MATCH, ...(adapter ?? {}) });
}

function integerOption(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    const expected = min === 0 ? 'a non-negative integer' : 'a positive integer';
    throw new ValidationError(`${name}: expected ${expected}, got ${String(value)}`);
  }
  return value;
}

/**
 * Each of `items` with the result of `read(item)`, in order, with the reads of up to `ahead` later items already
 * started. A read that fails is reported when its item's turn comes (the others' failures are observed, so an
 * early stop leaves no unhandled rejection).
 */
async function* readingAhead<T, R>(
  items: readonly T[],
  ahead: number,
  read: (item: T) => Promise<R>,
): AsyncGenerator<[T, R]> {
  const pending: Array<Promise<R>> = [];
  let started = 0;
  for (let i = 0; i < items.length; i++) {
    for (; started < items.length && started <= i + ahead; started++) {
      const result = read(items[started] as T);
      result.catch(() => {});
      pending.push(result);
    }
    yield [items[i] as T, await (pending.shift() as Promise<R>)];
  }
}

/**
 * Exports a store's rollouts (latest attempt of each) to one file. Rollouts are read page by page and their
 * spans rollout by rollout (up to `readAhead` rollouts ahead), adapted to triplets and streamed to the writer in
 * rollout order. Task-grouped formats (DPO, ART,
 * GRPO prompts) read in two passes: first the rollout ids of each task (≈100 bytes per selected rollout), then
 * the rollouts task by task, so memory holds one task's rollouts.
 */
export async function exportFromStore(
  store: LightningStore,
  options: ExportFromStoreOptions,
): Promise<ExportSummary> {
  const select = compileSelection(options);
  const pageSize = integerOption('pageSize', options.pageSize, 100, 1);
  const spanPageSize = integerOption('spanPageSize', options.spanPageSize, 1000, 1);
  const readAhead = integerOption('readAhead', options.readAhead, 4, 0);
  const adapter = adapterOf(options.adapter);
  const writer = ExportWriter.open({
    ...options,
    maxOpenGroups: options.maxOpenGroups ?? 1,
  });

  let total = 0;
  let done = 0;
  const progress = () => {
    done++;
    options.onProgress?.({
      rollouts_done: done,
      rollouts_total: total,
      rows: writer.rows,
    });
  };
  const setTotal = (t: number) => {
    total = t;
  };

  const exportRollouts = async (rollouts: Array<Rollout | AttemptedRollout>) => {
    const read = (rollout: Rollout | AttemptedRollout) => spansOf(store, rollout, spanPageSize);
    for await (const [rollout, spans] of readingAhead(rollouts, readAhead, read)) {
      options.signal?.throwIfAborted();
      const record = recordFrom(rollout, spans, adapter, (m) => writer.warn(m));
      if (typeof record === 'string') writer.skipRollouts(record);
      else await writer.write(record);
      progress();
    }
  };

  try {
    if (writer.format.grouping === 'rollout') {
      for await (const page of rolloutPages(store, pageSize, setTotal)) {
        options.signal?.throwIfAborted();
        const selected: Array<Rollout | AttemptedRollout> = [];
        for (const rollout of page) {
          const reason = select(rollout);
          if (reason) {
            writer.skipRollouts(reason);
            progress();
          } else {
            selected.push(rollout);
          }
        }
        await exportRollouts(selected);
      }
    } else {
      const tasks = new Map<string, string[]>();
      for await (const page of rolloutPages(store, pageSize, setTotal)) {
        for (const rollout of page) {
          const reason = select(rollout);
          if (reason) {
            writer.skipRollouts(reason);
            progress();
            continue;
          }
          const taskId = taskIdOf(rollout);
          const ids = tasks.get(taskId);
          if (ids) ids.push(rollout.rollout_id);
          else tasks.set(taskId, [rollout.rollout_id]);
        }
      }
      for (const ids of tasks.values()) {
        for (let i = 0; i < ids.length; i += pageSize) {
          await exportRollouts(await rolloutsById(store, ids.slice(i, i + pageSize)));
        }
      }
    }
  } catch (error) {
    await writer.abort();
    throw error;
  }
  return writer.close();
}

/** The spans of a rollout's latest attempt, in sequence order; undefined when it has no attempt. */
function spansOf(
  store: LightningStore,
  rollout: Rollout | AttemptedRollout,
  spanPageSize: number,
): Promise<Span[] | undefined> {
  if (!isAttemptedRollout(rollout)) return Promise.resolve(undefined);
  return attemptSpans(store, rollout.rollout_id, rollout.attempt.attempt_id, spanPageSize);
}

/**
 * One rollout and its latest attempt's spans → its export record, or the reason it has none: `no_attempt`,
 * `no_spans`, or `adapter_error` (malformed spans the adapter rejects with a `ValidationError`; the message goes
 * to the summary's warnings).
 */
function recordFrom(
  rollout: Rollout | AttemptedRollout,
  spans: Span[] | undefined,
  adapter: TripletAdapter,
  warn: (message: string) => void,
): ExportRecord | string {
  if (spans === undefined || !isAttemptedRollout(rollout)) return 'no_attempt';
  if (spans.length === 0) return 'no_spans';
  try {
    return { rollout, attempt_id: rollout.attempt.attempt_id, triplets: adapter.adapt(spans) };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    warn(`rollout ${rollout.rollout_id}: the adapter rejected its spans: ${error.message}`);
    return 'adapter_error';
  }
}

/** One rollout → its export record, or the reason it has none (see `recordFrom`). */
export async function recordOf(
  store: LightningStore,
  rollout: Rollout | AttemptedRollout,
  adapter: TripletAdapter,
  spanPageSize: number,
  warn: (message: string) => void,
): Promise<ExportRecord | string> {
  return recordFrom(rollout, await spansOf(store, rollout, spanPageSize), adapter, warn);
}
