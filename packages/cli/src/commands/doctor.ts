import type { Command } from 'commander';
import { Option } from 'commander';

export interface DoctorCommandOptions {
  store?: string;
  db?: string;
  token?: string;
  llmCallMatch?: string;
  agentMatch?: string;
  json?: boolean;
}

/**
 * `arclight doctor`: reads a store and reports, per rollout, the LLM calls, token-id / logprob / message
 * coverage, the reward, the status, and what `arclight export` would skip and why (with the fix).
 */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'Check a store: per rollout LLM calls, token ids, rewards, and what an export would skip',
    )
    .option('--store <url>', 'read a running LightningStore server')
    .option('--db <file>', 'read a SQLite store file')
    .addOption(
      new Option('--token <token>', 'shared secret of the --store server').env(
        'ARCLIGHT_STORE_TOKEN',
      ),
    )
    .option('--llm-call-match <regex>', 'span names that are LLM calls (as for export)')
    .option('--agent-match <regex>', 'only LLM calls under agents whose name matches')
    .option('--json', 'print the report as JSON')
    .action(async (options: DoctorCommandOptions) => {
      const { runDoctor } = await import('./doctor-run.js');
      process.exitCode = await runDoctor(options);
    });
}
