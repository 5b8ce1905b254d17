import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { LightningStoreClient } from '@arclight/client';
import {
  EmptyExportError,
  type ExportFromStoreOptions,
  type ExportSummary,
  exportFromStore,
  skipExplanations,
} from '@arclight/export';
import { type LightningStore, SqliteLightningStore } from '@arclight/store';
import type { ExportCommandOptions } from './export.js';
import { ProgressBar } from './progress-bar.js';

const fail = (message: string): number => {
  process.stderr.write(`arclight export: ${message}\n`);
  return 1;
};

export function openSource(
  options: Pick<ExportCommandOptions, 'store' | 'db' | 'token'>,
): LightningStore | string {
  if (options.store && options.db) return 'give either --store <url> or --db <file>, not both';
  if (options.store) {
    return new LightningStoreClient(options.store, { token: options.token });
  }
  if (options.db) {
    const path = resolve(options.db);
    if (!existsSync(path)) return `no SQLite store at ${path}`;
    return new SqliteLightningStore({ path });
  }
  return 'a source is required: --store <url> or --db <file>';
}

const counts = (record: Record<string, number>): string =>
  Object.entries(record)
    .map(([reason, n]) => `${reason} ${n.toLocaleString('en-US')}`)
    .join(', ') || 'none';

/** The human-readable summary printed at the end. */
export function formatSummary(summary: ExportSummary): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const lines = [
    `arclight export: wrote ${n(summary.rows)} rows (${summary.format}) to ${summary.out}`,
    `  rollouts: ${n(summary.rollouts)} read, ${n(summary.rollouts_exported)} exported`,
    `  triplets: ${n(summary.triplets)}`,
    `  skipped rollouts: ${counts(summary.skipped_rollouts)}`,
    `  skipped triplets: ${counts(summary.skipped_triplets)}`,
  ];
  if (summary.task_groups > 0) lines.splice(3, 0, `  task groups: ${n(summary.task_groups)}`);
  if (summary.merge) {
    const m = summary.merge;
    lines.push(
      `  merge: ${n(m.calls)} calls with ids → ${n(m.rows)} rows (${n(m.merged_calls)} calls merged), prefix breaks ${n(m.prefix_breaks)}${m.prefix_breaks > 0 ? `: ${counts(m.breaks_by_reason)}` : ''}`,
    );
    for (const b of m.first_breaks.slice(0, 5)) {
      lines.push(
        `    break: rollout ${b.rollout_id} call ${b.turn_index}, first differing token ${b.position} (${b.reason})`,
      );
    }
  }
  for (const warning of summary.warnings) lines.push(`  warning: ${warning}`);
  const explained = skipExplanations(summary);
  if (explained.length > 0) {
    lines.push('  why skipped, and the fix:');
    for (const line of explained) lines.push(`    - ${line}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Runs one export; resolves to the process exit code. */
export async function runExport(options: ExportCommandOptions): Promise<number> {
  const store = openSource(options);
  if (typeof store === 'string') return fail(store);
  const progress = new ProgressBar(process.stderr);
  // Ctrl-C stops between rollouts and deletes the partial output; a second one exits at once.
  const controller = new AbortController();
  const interrupt = () => {
    process.once('SIGINT', () => process.exit(130));
    controller.abort(new Error('interrupted; the partial output was deleted'));
  };
  process.once('SIGINT', interrupt);
  const exportOptions: ExportFromStoreOptions = {
    format: options.format,
    out: options.out,
    mode: options.mode ?? null,
    rolloutStatus: options.rolloutStatus ?? null,
    since: options.since ?? null,
    minReward: options.minReward ?? null,
    rewardThreshold: options.rewardThreshold,
    pageSize: options.pageSize,
    allowEmpty: options.allowEmpty === true,
    adapter: {
      ...(options.agentMatch !== undefined ? { agentMatch: options.agentMatch } : {}),
      ...(options.llmCallMatch !== undefined ? { llmCallMatch: options.llmCallMatch } : {}),
    },
    onProgress: (p) => progress.update(p.rollouts_done, p.rollouts_total, p.rows),
    signal: controller.signal,
  };
  try {
    const summary = await exportFromStore(store, exportOptions);
    progress.finish();
    process.stdout.write(
      options.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary),
    );
    return 0;
  } catch (error) {
    progress.finish();
    if (error instanceof EmptyExportError) {
      if (options.json) process.stdout.write(`${JSON.stringify(error.summary, null, 2)}\n`);
      fail(error.message);
      return error.exitCode;
    }
    fail((error as Error).message);
    return controller.signal.aborted ? 130 : 1;
  } finally {
    process.removeListener('SIGINT', interrupt);
    await store.close().catch(() => undefined);
  }
}
