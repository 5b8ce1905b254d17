import type { SkipCounter } from './formats/format.js';

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
   * `no_reward_difference`, `not_best_or_worst`, `no_pairable_conversations`.
   */
  skipped_rollouts: Record<string, number>;
  /** Triplets a format could not use, by reason (`no_token_ids`, `no_messages`). */
  skipped_triplets: Record<string, number>;
  /** Details of problems met on the way (the first 20). */
  warnings: string[];
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
    };
  }
}
