import { resolve } from 'node:path';
import { ValidationError } from '@arclight/core';
import { EmptyExportError } from './empty-export.js';
import type { ExportFormat, FormatOptions } from './formats/format.js';
import { formatByName } from './formats/registry.js';
import { type PreparedRollout, prepareRollout } from './prepared.js';
import type { ExportRecord } from './record.js';
import { JsonlSink } from './sinks/jsonl-sink.js';
import { ParquetSink } from './sinks/parquet-sink.js';
import type { RowSink } from './sinks/sink.js';
import { type ExportSummary, SummaryBuilder } from './summary.js';
import { TaskGrouper } from './task-grouper.js';

export interface ExportOptions {
  /** A name from `FORMAT_NAMES` (e.g. `verl-parquet`, `trl-sft`). */
  format: string;
  /** Output file; written as `<out>.partial` and renamed when the export completes. */
  out: string;
  /** SFT formats keep rollouts whose reward is ≥ this (default: all). */
  minReward?: number | null;
  /** KTO label threshold: `label = reward >= rewardThreshold` (default 0.5). */
  rewardThreshold?: number;
  /** DPO: required reward margin between best and worst rollout (default 0: strictly better). */
  minRewardGap?: number;
  /** Reward of rollouts without any reward (upstream's `reward_fillna_value`, default 0). */
  rewardFillna?: number;
  /** Parquet rows per row group (default 1000); memory holds one row group. */
  rowGroupSize?: number;
  /** Task-grouped formats: task groups kept open at once (default 1024; 1 when input is task-ordered). */
  maxOpenGroups?: number;
  /**
   * Write an empty file instead of throwing `EmptyExportError` when no row is produced (default false: an empty
   * training file is almost always a mistake, and trainers fail on it with unhelpful errors).
   */
  allowEmpty?: boolean;
}

function finiteOr(name: string, value: number | null | undefined, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ValidationError(`${name}: expected a finite number, got ${String(value)}`);
  }
  return value;
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new ValidationError(`${name}: expected a positive integer, got ${String(value)}`);
  }
  return value;
}

/**
 * Streams `ExportRecord`s into one output file of one format. Rows are written as they are produced; memory
 * holds one rollout (plus one Parquet row group, or the open task groups for task-grouped formats).
 */
export class ExportWriter {
  private readonly summary: SummaryBuilder;
  private readonly formatOptions: FormatOptions;
  private readonly grouper: TaskGrouper<PreparedRollout> | null;
  private readonly sink: RowSink<Record<string, unknown>>;
  private readonly fillna: number;
  private readonly allowEmpty: boolean;
  private finished = false;

  private constructor(
    readonly format: ExportFormat,
    options: ExportOptions,
  ) {
    this.summary = new SummaryBuilder(format.name, resolve(options.out));
    this.formatOptions = {
      minReward:
        options.minReward === undefined || options.minReward === null
          ? null
          : finiteOr('minReward', options.minReward, 0),
      rewardThreshold: finiteOr('rewardThreshold', options.rewardThreshold, 0.5),
      minRewardGap: finiteOr('minRewardGap', options.minRewardGap, 0),
    };
    this.fillna = finiteOr('rewardFillna', options.rewardFillna, 0);
    this.allowEmpty = options.allowEmpty === true;
    const maxOpen = positiveInt('maxOpenGroups', options.maxOpenGroups, 1024);
    this.grouper = format.grouping === 'task' ? new TaskGrouper(maxOpen) : null;
    const rowGroupSize = positiveInt('rowGroupSize', options.rowGroupSize, 1000);
    this.sink =
      format.output.kind === 'parquet'
        ? new ParquetSink(options.out, format.output.columns, rowGroupSize, {
            'arclight.format': format.name,
          })
        : new JsonlSink(options.out, format.output);
  }

  /** Opens `<out>.partial` for writing; throws `ValidationError` for an unknown format or bad option. */
  static open(options: ExportOptions): ExportWriter {
    if (typeof options.out !== 'string' || options.out === '') {
      throw new ValidationError('out: expected an output file path');
    }
    return new ExportWriter(formatByName(options.format), options);
  }

  /** Records rollouts that were read but not handed to `write` (e.g. filtered out by status or mode). */
  skipRollouts(reason: string, count = 1): void {
    this.summary.rollouts += count;
    this.summary.rollout(reason, count);
  }

  /** Adds a line to the summary's warnings. */
  warn(message: string): void {
    this.summary.warn(message);
  }

  async write(record: ExportRecord): Promise<void> {
    if (this.finished) throw new Error('ExportWriter: write() after close()');
    this.summary.rollouts++;
    this.summary.triplets += record.triplets.length;
    if (record.triplets.length === 0) {
      this.summary.rollout('no_llm_calls');
      return;
    }
    const prepared = prepareRollout(record, { rewardFillna: this.fillna });
    if (this.format.grouping === 'rollout') {
      await this.emit(this.format.rows(prepared, this.formatOptions, this.summary));
      return;
    }
    for (const group of this.grouper!.add(prepared.task_id, prepared)) await this.emitGroup(group);
  }

  private async emitGroup(group: PreparedRollout[]): Promise<void> {
    if (this.format.grouping !== 'task') return;
    const rows = this.format.rows(group, this.formatOptions, this.summary);
    if (rows.length > 0) this.summary.taskGroups++;
    await this.emit(rows);
  }

  private async emit(rows: unknown[]): Promise<void> {
    for (const row of rows) {
      await this.sink.write(row as Record<string, unknown>);
      this.summary.rows++;
    }
  }

  /** Rows written so far. */
  get rows(): number {
    return this.summary.rows;
  }

  /** A snapshot of the counts so far. */
  progress(): ExportSummary {
    return this.summary.build();
  }

  /**
   * Flushes open groups and the file, renames it to `out`, and returns the summary. With no row written (and
   * no `allowEmpty`) the partial file is deleted and `EmptyExportError` names the skip reasons and their fixes.
   */
  async close(): Promise<ExportSummary> {
    if (this.finished) throw new Error('ExportWriter: close() called twice');
    try {
      if (this.grouper) for (const group of this.grouper.drain()) await this.emitGroup(group);
      if (this.summary.rows === 0 && !this.allowEmpty) {
        throw new EmptyExportError(this.summary.build());
      }
      this.finished = true;
      await this.sink.close();
    } catch (error) {
      await this.abort();
      throw error;
    }
    return this.summary.build();
  }

  /** Discards the partial output. */
  async abort(): Promise<void> {
    this.finished = true;
    await this.sink.abort();
  }
}

/** Writes every record of `records` (sync or async iterable) and returns the summary. */
export async function writeExport(
  records: AsyncIterable<ExportRecord> | Iterable<ExportRecord>,
  options: ExportOptions,
): Promise<ExportSummary> {
  const writer = ExportWriter.open(options);
  try {
    if (isSyncIterable(records)) {
      // A plain loop: `for await` over a sync iterable costs a promise and a microtask per record on top of the
      // write's own. Promises among the values are awaited as `for await` would.
      for (const item of records as Iterable<ExportRecord | PromiseLike<ExportRecord>>) {
        await writer.write(isThenable(item) ? await item : item);
      }
    } else {
      for await (const record of records) await writer.write(record);
    }
  } catch (error) {
    await writer.abort();
    throw error;
  }
  return writer.close();
}

const isSyncIterable = (value: unknown): value is Iterable<ExportRecord> =>
  (typeof value === 'object' || typeof value === 'function') &&
  value !== null &&
  typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] !== 'function' &&
  typeof (value as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function';

const isThenable = (value: unknown): value is PromiseLike<ExportRecord> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';
