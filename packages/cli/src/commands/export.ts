import {
  ROLLOUT_MODES,
  ROLLOUT_STATUSES,
  type RolloutMode,
  type RolloutStatus,
} from '@arclight/core';
import { FORMAT_NAMES } from '@arclight/export/format-names';
import { type Command, InvalidArgumentError, Option } from 'commander';

export interface ExportCommandOptions {
  store?: string;
  db?: string;
  token?: string;
  format: string;
  out: string;
  mode?: RolloutMode;
  rolloutStatus?: RolloutStatus[];
  since?: string;
  agentMatch?: string;
  llmCallMatch?: string;
  minReward?: number;
  rewardThreshold?: number;
  pageSize?: number;
  allowEmpty?: boolean;
  json?: boolean;
}

function parseNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new InvalidArgumentError('expected a number.');
  return n;
}

function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1) {
    throw new InvalidArgumentError('expected a positive integer.');
  }
  return n;
}

/** `--rollout-status`: repeatable and/or comma-separated. */
function collectStatuses(value: string, previous: RolloutStatus[] = []): RolloutStatus[] {
  const statuses = value.split(',').map((s) => s.trim());
  for (const status of statuses) {
    if (!(ROLLOUT_STATUSES as readonly string[]).includes(status)) {
      throw new InvalidArgumentError(`expected one of ${ROLLOUT_STATUSES.join(', ')}.`);
    }
  }
  return [...previous, ...(statuses as RolloutStatus[])];
}

function checkRegex(value: string): string {
  try {
    new RegExp(value);
  } catch {
    throw new InvalidArgumentError('expected a regular expression.');
  }
  return value;
}

/** What `parseSince` of @arclight/export accepts: an epoch number or a date `Date.parse` reads. */
function checkSince(value: string): string {
  if (!/^\s*\d+(\.\d+)?\s*$/.test(value) && Number.isNaN(Date.parse(value))) {
    throw new InvalidArgumentError('expected an ISO-8601 date or an epoch time.');
  }
  return value;
}

/**
 * `arclight export`: write a store's rollouts as training data for an external trainer. The writers, the
 * adapter and the HTTP client load only when the command runs (`export-run.ts`), keeping other commands' startup
 * light.
 */
export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('Export rollouts as training data (verl, TRL, ART, OpenAI, native triplets)')
    .option('--store <url>', 'read a running LightningStore server')
    .option('--db <file>', 'read a SQLite store file')
    .addOption(
      new Option('--token <token>', 'shared secret of the --store server').env(
        'ARCLIGHT_STORE_TOKEN',
      ),
    )
    .addOption(
      new Option('--format <name>', 'output format').choices(FORMAT_NAMES).makeOptionMandatory(),
    )
    .requiredOption('--out <path>', 'output file (written as <path>.partial, renamed when done)')
    .addOption(new Option('--mode <mode>', 'only rollouts of this mode').choices(ROLLOUT_MODES))
    .option(
      '--rollout-status <status>',
      'only rollouts in these statuses (repeatable or comma-separated; default: succeeded,failed,cancelled)',
      collectStatuses,
    )
    .option(
      '--since <time>',
      'only rollouts started at/after this ISO date or epoch time',
      checkSince,
    )
    .option('--agent-match <regex>', 'only LLM calls under agents whose name matches', checkRegex)
    .option(
      '--llm-call-match <regex>',
      'span names that are LLM calls (default: openai.chat.completion, openai.responses.create, openai.completion)',
      checkRegex,
    )
    .option('--min-reward <n>', 'SFT formats: only rollouts with reward >= n', parseNumber)
    .option('--reward-threshold <n>', 'KTO: label = reward >= n (default 0.5)', parseNumber)
    .option('--page-size <n>', 'rollouts per store request (default 100)', parsePositiveInt)
    .option(
      '--allow-empty',
      'write an empty file instead of failing (exit 2) when no row qualifies',
    )
    .option('--json', 'print the summary as JSON')
    .action(async (options: ExportCommandOptions) => {
      const { runExport } = await import('./export-run.js');
      process.exitCode = await runExport(options);
    });
}
