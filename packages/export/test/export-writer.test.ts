import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationError } from '@arclight/core';
import { describe, expect, it } from 'vitest';
import {
  EmptyExportError,
  type ExportRecord,
  ExportWriter,
  FORMAT_NAMES,
  writeExport,
} from '../src/index.js';
import { recordOf } from './support/fixtures.js';
import { exportJsonl, tempDir } from './support/run.js';
import { SCENARIO } from './support/scenario.js';

describe('writeExport', () => {
  it('writes <out>.partial and renames it at the end, creating parent directories', async () => {
    const dir = tempDir();
    const out = join(dir, 'nested', 'deeper', 'rows.jsonl');
    const summary = await writeExport(SCENARIO.map(recordOf), { format: 'verl-jsonl', out });
    expect(summary.out).toBe(out);
    expect(readdirSync(join(dir, 'nested', 'deeper'))).toEqual(['rows.jsonl']);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(summary.rows);
  });

  it('a failing source leaves neither the output nor the partial file', async () => {
    const dir = tempDir();
    const out = join(dir, 'rows.parquet');
    async function* failing(): AsyncGenerator<ExportRecord> {
      yield recordOf(SCENARIO[0]!);
      throw new Error('store went away');
    }
    await expect(writeExport(failing(), { format: 'verl-parquet', out })).rejects.toThrow(
      'store went away',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('accepts sync iterables; with no row it throws EmptyExportError and leaves no file', async () => {
    const dir = tempDir();
    const out = join(dir, 'empty.jsonl');
    const failure = await writeExport([], { format: 'trl-sft', out }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EmptyExportError);
    expect((failure as EmptyExportError).message).toMatch(/holds no rollouts/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('allowEmpty writes an empty (valid) file when nothing qualifies', async () => {
    const { rows, summary } = await exportJsonl([], { format: 'trl-sft', allowEmpty: true });
    expect(rows).toEqual([]);
    expect(summary).toMatchObject({ rollouts: 0, rows: 0, rollouts_exported: 0 });
  });

  it('rejects unknown formats and bad options with ValidationError naming the field', () => {
    const out = join(tempDir(), 'x.jsonl');
    expect(() => ExportWriter.open({ format: 'csv', out })).toThrow(/format: unknown format "csv"/);
    expect(() => ExportWriter.open({ format: 'verl-parquet', out, rowGroupSize: 0 })).toThrow(
      ValidationError,
    );
    expect(() =>
      ExportWriter.open({ format: 'trl-kto', out, rewardThreshold: Number.NaN }),
    ).toThrow(/rewardThreshold/);
    expect(() => ExportWriter.open({ format: 'trl-kto', out: '' })).toThrow(/out:/);
    expect(existsSync(out)).toBe(false);
  });

  it('lists every format once', () => {
    expect(new Set(FORMAT_NAMES).size).toBe(FORMAT_NAMES.length);
    expect(FORMAT_NAMES).toEqual(
      expect.arrayContaining(['verl-parquet', 'trl-sft', 'trl-dpo', 'art', 'openai-dpo']),
    );
  });
});

describe('task grouping is bounded', () => {
  const interleaved = () => {
    const byId = (id: string) => recordOf(SCENARIO.find((r) => r.rollout_id === id)!);
    // q1, q2, q1, q2: tasks alternate.
    return ['ro-r1', 'ro-r4', 'ro-r2', 'ro-r5'].map(byId);
  };

  it('with room for every task, interleaved input still groups by task', async () => {
    const { rows } = await exportJsonl(interleaved(), { format: 'art' });
    expect(rows).toHaveLength(2);
  });

  it('maxOpenGroups = 1 flushes a group whenever the task changes (input should be task-ordered)', async () => {
    const { rows, summary } = await exportJsonl(interleaved(), { format: 'art', maxOpenGroups: 1 });
    expect(rows).toHaveLength(4);
    expect(summary.task_groups).toBe(4);
  });
});
