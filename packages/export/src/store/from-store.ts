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

function pageSizeOf(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new ValidationError(`${name}: expected a positive integer, got ${String(value)}`);
  }
  return value;
}

/**
 * Exports a store's rollouts (latest attempt of each) to one file. Rollouts are read page by page and their
 * spans one rollout at a time, adapted to triplets and streamed to the writer. Task-grouped formats (DPO, ART,
 * GRPO prompts) read in two passes: first the rollout ids of each task (≈100 bytes per selected rollout), then
 * the rollouts task by task, so memory holds one task's rollouts.
 */
export async function exportFromStore(
  store: LightningStore,
  options: ExportFromStoreOptions,
): Promise<ExportSummary> {
  const select = compileSelection(options);
  const pageSize = pageSizeOf('pageSize', options.pageSize, 100);
  const spanPageSize = pageSizeOf('spanPageSize', options.spanPageSize, 1000);
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

  const exportRollout = async (rollout: Rollout | AttemptedRollout) => {
    options.signal?.throwIfAborted();
    const record = await recordOf(store, rollout, adapter, spanPageSize, (m) => writer.warn(m));
    if (typeof record === 'string') writer.skipRollouts(record);
    else await writer.write(record);
    progress();
  };

  try {
    if (writer.format.grouping === 'rollout') {
      for await (const page of rolloutPages(store, pageSize, setTotal)) {
        for (const rollout of page) {
          options.signal?.throwIfAborted();
          const reason = select(rollout);
          if (reason) {
            writer.skipRollouts(reason);
            progress();
          } else {
            await exportRollout(rollout);
          }
        }
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
          for (const rollout of await rolloutsById(store, ids.slice(i, i + pageSize))) {
            await exportRollout(rollout);
          }
        }
      }
    }
  } catch (error) {
    await writer.abort();
    throw error;
  }
  return writer.close();
}

/**
 * One rollout → its export record, or the reason it has none: `no_attempt`, `no_spans`, or `adapter_error`
 * (malformed spans the adapter rejects with a `ValidationError`; the message goes to the summary's warnings).
 */
export async function recordOf(
  store: LightningStore,
  rollout: Rollout | AttemptedRollout,
  adapter: TripletAdapter,
  spanPageSize: number,
  warn: (message: string) => void,
): Promise<ExportRecord | string> {
  if (!isAttemptedRollout(rollout)) return 'no_attempt';
  const attemptId = rollout.attempt.attempt_id;
  const spans = await attemptSpans(store, rollout.rollout_id, attemptId, spanPageSize);
  if (spans.length === 0) return 'no_spans';
  try {
    return { rollout, attempt_id: attemptId, triplets: adapter.adapt(spans) };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    warn(`rollout ${rollout.rollout_id}: the adapter rejected its spans: ${error.message}`);
    return 'adapter_error';
  }
}
