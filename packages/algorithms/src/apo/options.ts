import { type Logger, ValidationError } from '@arclight/core';
import type OpenAI from 'openai';
import type { APOEvent } from './events.js';
import { DEFAULT_APPLY_EDIT_PROMPT_FILES, DEFAULT_GRADIENT_PROMPT_FILES } from './prompt-files.js';

export interface APOOptions {
  /** The OpenAI-compatible client of the critique and edit calls. Default: `new OpenAI({ baseURL, apiKey })`. */
  client?: OpenAI;
  /** Used when `client` is absent (default: the SDK's `OPENAI_BASE_URL` / `OPENAI_API_KEY`). */
  baseURL?: string;
  apiKey?: string;
  /** Model computing textual gradients (critiques). Default `gpt-5-mini` (upstream). */
  gradientModel?: string;
  /** Model applying critiques to templates. Default `gpt-4.1-mini` (upstream). */
  applyEditModel?: string;
  /** Temperature of both calls. Default 1. */
  diversityTemperature?: number;
  /** Runs shown to each critique. Default 4. */
  gradientBatchSize?: number;
  /** Validation tasks that score the candidates of a round. Default 16. */
  valBatchSize?: number;
  /** Prompts kept after each round. Default 4. */
  beamWidth?: number;
  /** New candidates per parent and round. Default 4. */
  branchFactor?: number;
  /** Rounds of beam search. Default 3. */
  beamRounds?: number;
  /** Seconds to wait for a batch of rollouts; unfinished ones are left out of the score. Default 3600. */
  rolloutBatchTimeout?: number;
  /** Score the seed prompt on the whole validation set first. Default true. */
  runInitialValidation?: boolean;
  /** Gradient prompt files (see `prompts/`). Default: the package's three variants. */
  gradientPromptFiles?: readonly string[];
  /** Apply-edit prompt files. Default: the package's two variants. */
  applyEditPromptFiles?: readonly string[];
  /** Seed of every random choice (batches, parents, samples, prompt variants). Default: random. */
  seed?: number;
  /** Longest single wait for rollouts, in seconds. Default 1. */
  pollInterval?: number;
  /** Name of the prompt-template resource to optimise. Default: the first `PromptTemplate` of the resources. */
  resourceName?: string;
  /** Progress events (rounds, scores, candidates) — e.g. for a progress display. */
  onProgress?: (event: APOEvent) => void;
  /** Log lines as upstream's (`[Round 01 | Prompt v3] …`). Default: the console; `null` silences. */
  logger?: Logger | null;
}

export interface ResolvedAPOOptions {
  gradientModel: string;
  applyEditModel: string;
  diversityTemperature: number;
  gradientBatchSize: number;
  valBatchSize: number;
  beamWidth: number;
  branchFactor: number;
  beamRounds: number;
  rolloutBatchTimeout: number;
  runInitialValidation: boolean;
  gradientPromptFiles: readonly string[];
  applyEditPromptFiles: readonly string[];
  pollInterval: number;
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new ValidationError(`${name}: expected a positive integer, got ${String(value)}`);
  }
  return value;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new ValidationError(`${name}: expected a non-negative number, got ${String(value)}`);
  }
  return value;
}

function files(name: string, value: readonly string[] | undefined, fallback: readonly string[]) {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.length === 0 || value.some((f) => typeof f !== 'string')) {
    throw new ValidationError(`${name}: expected a non-empty list of file paths`);
  }
  return [...value];
}

export function resolveAPOOptions(options: APOOptions): ResolvedAPOOptions {
  return {
    gradientModel: options.gradientModel ?? 'gpt-5-mini',
    applyEditModel: options.applyEditModel ?? 'gpt-4.1-mini',
    diversityTemperature: nonNegative('diversityTemperature', options.diversityTemperature, 1),
    gradientBatchSize: positiveInt('gradientBatchSize', options.gradientBatchSize, 4),
    valBatchSize: positiveInt('valBatchSize', options.valBatchSize, 16),
    beamWidth: positiveInt('beamWidth', options.beamWidth, 4),
    branchFactor: positiveInt('branchFactor', options.branchFactor, 4),
    beamRounds: positiveInt('beamRounds', options.beamRounds, 3),
    rolloutBatchTimeout: nonNegative('rolloutBatchTimeout', options.rolloutBatchTimeout, 3600),
    runInitialValidation: options.runInitialValidation ?? true,
    gradientPromptFiles: files(
      'gradientPromptFiles',
      options.gradientPromptFiles,
      DEFAULT_GRADIENT_PROMPT_FILES,
    ),
    applyEditPromptFiles: files(
      'applyEditPromptFiles',
      options.applyEditPromptFiles,
      DEFAULT_APPLY_EDIT_PROMPT_FILES,
    ),
    pollInterval: nonNegative('pollInterval', options.pollInterval, 1) || 1,
  };
}
