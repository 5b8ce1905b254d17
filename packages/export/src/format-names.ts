/**
 * The export format names, in `--format` order. Kept dependency-free so that a CLI can list them without
 * loading the writers; `formats/registry.ts` checks that it matches the registered formats.
 */
export const FORMAT_NAMES = [
  'triplets',
  'verl-jsonl',
  'verl-parquet',
  'verl-trajectory-jsonl',
  'verl-trajectory-parquet',
  'verl-sft',
  'verl-rlhf',
  'trl-sft',
  'trl-sft-tokens',
  'trl-dpo',
  'trl-kto',
  'trl-prompt',
  'art',
  'openai-sft',
  'openai-dpo',
] as const;

export type FormatName = (typeof FORMAT_NAMES)[number];
