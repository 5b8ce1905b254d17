import type { MergeOutcome, SkipCounter } from './formats/format.js';
import type { PrefixBreak } from './token-merge.js';

/** What an export did: counts, and everything it skipped by reason. */
export interface ExportSummary {
  format: string;
  /** Absolute path of the written file. */
  out: string;
  /** Rollouts considered (including the ones skipped or filtered out). */
  rollouts: number;
  /** Rollouts that contributed at least one row (`rollouts` minus every skipped rollout). */
  rollouts_exported: number;
  /** Triplets (LLM calls) of the considered rollouts. */
  triplets: number;
  rows: number;
  /** Task groups written (task-grouped formats only; 0 otherwise). */
  task_groups: number;
  /**
   * Rollouts skipped, by reason: `unfinished`, `status`, `mode`, `since` (filtered while reading a store),
   * `no_attempt`, `no_spans`, `adapter_error` (reading a store), `no_llm_calls`, `no_token_ids`, `no_messages`, `below_min_reward`, `single_rollout_task`,
   * `no_reward_difference`, `not_best_or_worst`, `no_pairable_conversations`, `identical_first_replies` (openai-dpo).
   */
  skipped_rollouts: Record<string, number>;
  /** Triplets a format could not use, by reason (`no_token_ids`, `no_messages`). */
  skipped_triplets: Record<string, number>;
  /** Details of problems met on the way (the first 20). */
  warnings: string[];
  /**
   * Trajectory-level formats (`verl-trajectory-*`, `trl-sft-tokens`): how the Token-In-Token-Out merge went —
   * calls with ids, calls merged into an earlier call's row, rows, prefix breaks by reason, and the first 20
   * breaks (rollout, call index, first differing token position, reason). Absent for other formats.
   */
  merge?: {
    calls: number;
    merged_calls: number;
    rows: number;
    prefix_breaks: number;
    breaks_by_reason: Record<string, number>;
    first_breaks: Array<PrefixBreak & { rollout_id: string }>;
  };
}

const MAX_WARNINGS = 20;

export class SummaryBuilder implements SkipCounter {
  rollouts = 0;
  triplets = 0;
  rows = 0;
  taskGroups = 0;
  private readonly skippedRollouts: Record<string, number> = {};
  private readonly skippedTriplets: Record<string, number> = {};
  private readonly warnings: string[] = [];

  constructor(
    private readonly format: string,
    private readonly out: string,
  ) {}

  rollout(reason: string, count = 1): void {
    if (count > 0) this.skippedRollouts[reason] = (this.skippedRollouts[reason] ?? 0) + count;
  }

  triplet(reason: string, count = 1): void {
    if (count > 0) this.skippedTriplets[reason] = (this.skippedTriplets[reason] ?? 0) + count;
  }

  private mergeStats: NonNullable<ExportSummary['merge']> | null = null;

  merge(outcome: MergeOutcome): void {
    this.mergeStats ??= {
      calls: 0,
      merged_calls: 0,
      rows: 0,
      prefix_breaks: 0,
      breaks_by_reason: {},
      first_breaks: [],
    };
    const m = this.mergeStats;
    m.calls += outcome.calls;
    m.rows += outcome.rows;
    m.merged_calls += outcome.calls - outcome.rows;
    m.prefix_breaks += outcome.breaks.length;
    for (const b of outcome.breaks) {
      m.breaks_by_reason[b.reason] = (m.breaks_by_reason[b.reason] ?? 0) + 1;
      if (m.first_breaks.length < MAX_WARNINGS)
        m.first_breaks.push({ rollout_id: outcome.rollout_id, ...b });
    }
  }

  warn(message: string): void {
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push(message);
  }

  build(): ExportSummary {
    const skipped = Object.values(this.skippedRollouts).reduce((a, b) => a + b, 0);
    return {
      format: this.format,
      out: this.out,
      rollouts: this.rollouts,
      rollouts_exported: Math.max(0, this.rollouts - skipped),
      triplets: this.triplets,
      rows: this.rows,
      task_groups: this.taskGroups,
      skipped_rollouts: { ...this.skippedRollouts },
      skipped_triplets: { ...this.skippedTriplets },
      warnings: [...this.warnings],
      ...(this.mergeStats
        ? {
            merge: {
              ...this.mergeStats,
              breaks_by_reason: { ...this.mergeStats.breaks_by_reason },
              first_breaks: [...this.mergeStats.first_breaks],
            },
          }
        : {}),
    };
  }
}
