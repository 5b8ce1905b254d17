import type { PreparedCall, PreparedRollout } from '../prepared.js';
import type { JsonLine } from '../sinks/json-line.js';
import type { ParquetColumn } from '../sinks/parquet-sink.js';
import {
  mergedRow,
  mergedRuns,
  type PrefixBreak,
  type TokenRow,
  transitionRows,
} from '../token-merge.js';
import type { RolloutFormat, SkipCounter } from './format.js';

/**
 * A verl training row: what upstream's VERL daemon builds per triplet (transition level) or per prefix-merged
 * run of calls (trajectory level) before padding it into a `DataProto` (see python/verl_rows.py).
 */
export interface VerlRow {
  /** GRPO group id: the task (verl's `uid`, upstream sets it to the data id). */
  uid: string;
  /** Same as `uid` (upstream's `data_id_list`). */
  data_id: string;
  rollout_id: string;
  attempt_id: string | null;
  mode: string | null;
  /** `transition` or `trajectory`. */
  level: string;
  /** Index of the row's first call in the rollout (upstream's `turn_index_list`). */
  turn_index: number;
  /** Indices of all calls merged into the row. */
  turn_indices: number[];
  agent_name: string | null;
  prompt_ids: number[];
  response_ids: number[];
  /** 1 = model token (trained), 0 = observation token; all 1 at transition level. */
  response_mask: number[];
  /** Behaviour-policy logprobs aligned with `response_ids` (0.0 on observation tokens), or null. */
  rollout_log_probs: number[] | null;
  /** The rollout's reward (identical assignment); verl places it on the last response token. */
  reward: number;
}

export const VERL_COLUMNS: readonly ParquetColumn[] = [
  { name: 'uid', type: 'string', nullable: false },
  { name: 'data_id', type: 'string', nullable: false },
  { name: 'rollout_id', type: 'string', nullable: false },
  { name: 'attempt_id', type: 'string', nullable: true },
  { name: 'mode', type: 'string', nullable: true },
  { name: 'level', type: 'string', nullable: false },
  { name: 'turn_index', type: 'int32', nullable: false },
  { name: 'turn_indices', type: 'int32[]', nullable: false },
  { name: 'agent_name', type: 'string', nullable: true },
  { name: 'prompt_ids', type: 'int32[]', nullable: false },
  { name: 'response_ids', type: 'int32[]', nullable: false },
  { name: 'response_mask', type: 'int32[]', nullable: false },
  { name: 'rollout_log_probs', type: 'double[]', nullable: true },
  { name: 'reward', type: 'double', nullable: false },
];

/**
 * Token rows of a rollout, counting calls without ids (and rollouts left without any row). `withLogprobs`
 * false: trajectory rows without `rollout_log_probs` (see `trajectoryRows`).
 */
export function tokenRowsOf(
  rollout: PreparedRollout,
  level: 'transition' | 'trajectory',
  skip: SkipCounter,
  withLogprobs = true,
): TokenRow[] {
  if (level === 'transition') {
    countMissingIds(rollout, skip);
    const rows = transitionRows(rollout.calls);
    if (rows.length === 0) skip.rollout('no_token_ids');
    return rows;
  }
  return mergedRunsOf(rollout, skip).map((run) => mergedRow(run, withLogprobs));
}

function countMissingIds(rollout: PreparedRollout, skip: SkipCounter): void {
  let missing = 0;
  for (const c of rollout.calls) if (c.prompt_ids === null || c.response_ids === null) missing++;
  if (missing > 0) skip.triplet('no_token_ids', missing);
}

/** The calls of each prefix-merged row of a rollout (see `mergedRuns`), counted as `tokenRowsOf` counts them. */
export function mergedRunsOf(rollout: PreparedRollout, skip: SkipCounter): PreparedCall[][] {
  const breaks: PrefixBreak[] = [];
  const runs = mergedRuns(rollout.calls, (b) => breaks.push(b));
  countMissingIds(rollout, skip); // after the merge, which checks the ids it does not compare (see `promptExtends`)
  if (runs.length === 0) skip.rollout('no_token_ids');
  else {
    let calls = 0;
    for (const run of runs) calls += run.length;
    skip.merge?.({ rollout_id: rollout.rollout_id, calls, rows: runs.length, breaks });
  }
  return runs;
}

function verlRows(
  rollout: PreparedRollout,
  level: 'transition' | 'trajectory',
  skip: SkipCounter,
): VerlRow[] {
  return tokenRowsOf(rollout, level, skip).map((row) => ({
    uid: rollout.task_id,
    data_id: rollout.task_id,
    rollout_id: rollout.rollout_id,
    attempt_id: rollout.attempt_id,
    mode: rollout.mode,
    level,
    turn_index: row.calls[0]!.turn_index,
    turn_indices: row.calls.map((c) => c.turn_index),
    agent_name: row.calls[0]!.agent_name,
    prompt_ids: row.prompt_ids,
    response_ids: row.response_ids,
    response_mask: row.response_mask,
    rollout_log_probs: row.rollout_log_probs,
    reward: rollout.reward,
  }));
}

/** Writes `JSON.stringify(row)` of a `VerlRow` (see `JsonLine`); the prompt is remembered for the next call's. */
function verlLine(row: VerlRow, out: JsonLine): void {
  out.text(`{${out.members(row, VERL_HEAD)},"turn_indices":`);
  out.ints(row.turn_indices);
  out.text(',"agent_name":' + out.value(row.agent_name) + ',"prompt_ids":');
  out.ints(row.prompt_ids, true);
  out.text(',"response_ids":');
  out.ints(row.response_ids);
  out.text(',"response_mask":');
  out.mask(row.response_mask);
  out.text(',"rollout_log_probs":');
  out.numbers(row.rollout_log_probs);
  out.text(`,"reward":${out.value(row.reward)}}`);
}

const VERL_HEAD = [
  'uid',
  'data_id',
  'rollout_id',
  'attempt_id',
  'mode',
  'level',
  'turn_index',
] as const;

function verlFormat(
  name: string,
  level: 'transition' | 'trajectory',
  kind: 'jsonl' | 'parquet',
): RolloutFormat<VerlRow> {
  const unit = level === 'transition' ? 'one row per LLM call' : 'prefix-merged calls, masked';
  return {
    name,
    description: `verl ${level} rows (${unit}), ${kind === 'jsonl' ? 'JSONL' : 'Parquet'}`,
    grouping: 'rollout',
    output: kind === 'jsonl' ? { kind, line: verlLine } : { kind, columns: VERL_COLUMNS },
    rows: (rollout, _options, skip) => verlRows(rollout, level, skip),
  };
}

export const verlFormats = [
  verlFormat('verl-jsonl', 'transition', 'jsonl'),
  verlFormat('verl-parquet', 'transition', 'parquet'),
  verlFormat('verl-trajectory-jsonl', 'trajectory', 'jsonl'),
  verlFormat('verl-trajectory-parquet', 'trajectory', 'parquet'),
];
