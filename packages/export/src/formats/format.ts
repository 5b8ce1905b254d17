import type { PreparedRollout } from '../prepared.js';
import type { JsonLine } from '../sinks/json-line.js';
import type { ParquetColumn } from '../sinks/parquet-sink.js';
import type { PrefixBreak } from '../token-merge.js';

/** Options every format may read (all have defaults; see `resolveFormatOptions`). */
export interface FormatOptions {
  /** SFT formats (`trl-sft`, `trl-sft-tokens`, `openai-sft`): keep rollouts whose reward is ≥ this. */
  minReward: number | null;
  /** KTO: `label = reward >= rewardThreshold`. Default 0.5. */
  rewardThreshold: number;
  /** DPO: the best rollout's reward must exceed the worst one's by more than this. Default 0. */
  minRewardGap: number;
}

/** Counts what a format could not use, by reason (rollouts and triplets separately). */
export interface SkipCounter {
  rollout(reason: string, count?: number): void;
  triplet(reason: string, count?: number): void;
  /** Trajectory-level formats: one rollout's merge outcome (calls merged into rows, prefix breaks). */
  merge?(outcome: MergeOutcome): void;
}

export interface MergeOutcome {
  rollout_id: string;
  /** Calls with token ids. */
  calls: number;
  rows: number;
  breaks: PrefixBreak[];
}

/**
 * JSON Lines output. `line`, when given, writes a row's line faster than `JSON.stringify(row)` and must produce
 * exactly its bytes (same keys in the same order, each member through `out`'s `JSON.stringify`-identical
 * pieces); when `out.value` marks the line unsafe, the sink writes `JSON.stringify(row)` instead.
 */
export interface JsonlOutput<Row> {
  kind: 'jsonl';
  line?(row: Row, out: JsonLine): void;
}

interface FormatBase<Row> {
  name: string;
  /** One line for `--help` and the README. */
  description: string;
  /** Where rows go: JSON Lines, or Parquet with these columns. */
  output: JsonlOutput<Row> | { kind: 'parquet'; columns: readonly ParquetColumn[] };
}

/** Formats that turn each rollout into rows on its own (constant memory). */
export interface RolloutFormat<Row = unknown> extends FormatBase<Row> {
  grouping: 'rollout';
  rows(rollout: PreparedRollout, options: FormatOptions, skip: SkipCounter): Row[];
}

/** Formats that need all rollouts of a task together (DPO pairs, ART groups, GRPO prompts). */
export interface TaskFormat<Row = unknown> extends FormatBase<Row> {
  grouping: 'task';
  rows(group: PreparedRollout[], options: FormatOptions, skip: SkipCounter): Row[];
}

export type ExportFormat = RolloutFormat | TaskFormat;
