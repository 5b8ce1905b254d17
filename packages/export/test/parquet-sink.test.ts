import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { zstdDecompressSync } from 'node:zlib';
import { ValidationError } from '@arclight/core';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { writeExport } from '../src/index.js';
import {
  ColumnarParquetSink,
  type ParquetCodec,
  ZSTD_AVAILABLE,
} from '../src/sinks/columnar-parquet-sink.js';
import type { ParquetColumn } from '../src/sinks/parquet-sink.js';
import { recordOf } from './support/fixtures.js';
import { exportJsonl, tempDir } from './support/run.js';
import { SCENARIO } from './support/scenario.js';

/** Reads a Parquet file back with hyparquet (an independent reader); ZSTD pages through node:zlib. */
async function readParquet(path: string) {
  const file = await asyncBufferFromFile(path);
  const compressors = { ZSTD: (input: Uint8Array) => new Uint8Array(zstdDecompressSync(input)) };
  // hyparquet reads a null list as undefined (pyarrow: None)
  const rows = (await parquetReadObjects({ file, compressors })).map((row) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === undefined ? null : v])),
  );
  const metadata = await parquetMetadataAsync(file);
  return { rows, metadata };
}

const COLUMNS: ParquetColumn[] = [
  { name: 'name', type: 'string', nullable: false },
  { name: 'note', type: 'string', nullable: true },
  { name: 'count', type: 'int32', nullable: false },
  { name: 'rank', type: 'int32', nullable: true },
  { name: 'score', type: 'double', nullable: true },
  { name: 'flag', type: 'boolean', nullable: true },
  { name: 'ids', type: 'int32[]', nullable: false },
  { name: 'probs', type: 'double[]', nullable: true },
];

/** Rows covering nulls, empty lists, non-ASCII text and negative values in every column kind. */
const sampleRows = (n: number) =>
  Array.from({ length: n }, (_, r) => ({
    name: `ré-${r} ✓`,
    note: r % 3 === 0 ? null : `note ${r}`,
    count: r - 5,
    rank: r % 2 === 0 ? r : null,
    score: r % 4 === 0 ? null : r / 3,
    flag: r % 5 === 0 ? null : r % 2 === 0,
    ids: Array.from({ length: r % 4 }, (_, k) => k * 100_000 - r),
    probs: r % 3 === 1 ? null : Array.from({ length: (r * 7) % 5 }, (_, k) => -k / 7),
  }));

describe('columnar Parquet sink (flat schemas)', () => {
  // Node 22.13-22.14 has no zstd in node:zlib: there ZSTD is refused up front (the default is SNAPPY).
  if (!ZSTD_AVAILABLE) {
    it('refuses ZSTD on a Node without zstd, naming the version and SNAPPY', () => {
      expect(
        () =>
          new ColumnarParquetSink(join(tempDir(), 'z.parquet'), COLUMNS, {
            rowGroupSize: 5,
            codec: 'ZSTD',
          }),
      ).toThrow(/ZSTD needs node:zlib's zstd .*use SNAPPY/);
    });
  }
  for (const codec of (ZSTD_AVAILABLE ? ['ZSTD', 'SNAPPY'] : ['SNAPPY']) as ParquetCodec[]) {
    it(`${codec}: every column kind reads back as written, across row groups`, async () => {
      const out = join(tempDir(), 'rows.parquet');
      const rows = sampleRows(23);
      const sink = new ColumnarParquetSink(out, COLUMNS, {
        rowGroupSize: 5,
        metadata: { 'arclight.format': 'test' },
        codec,
      });
      for (const row of rows) await sink.write(row);
      await sink.close();
      const read = await readParquet(out);
      expect(read.rows).toEqual(rows);
      expect(read.metadata.row_groups.map((g) => Number(g.num_rows))).toEqual([5, 5, 5, 5, 3]);
      expect(read.metadata.row_groups[0]!.columns[6]!.meta_data).toMatchObject({
        codec,
        path_in_schema: ['ids', 'list', 'element'],
      });
      expect(read.metadata.key_value_metadata).toEqual([{ key: 'arclight.format', value: 'test' }]);
    });
  }

  it('cuts column chunks into pages of ~pageBytes at row boundaries', async () => {
    const rows = sampleRows(40);
    const write = async (pageBytes: number | undefined) => {
      const out = join(tempDir(), 'pages.parquet');
      const sink = new ColumnarParquetSink(out, COLUMNS, { rowGroupSize: 40, pageBytes });
      for (const row of rows) await sink.write(row);
      await sink.close();
      return readParquet(out);
    };
    const [onePage, smallPages] = [await write(undefined), await write(16)];
    expect(smallPages.rows).toEqual(rows);
    // ids hold 60 values (240 bytes): with 16-byte pages, 10+ pages, each with its own header and level runs.
    const ids = (read: typeof onePage) => read.metadata.row_groups[0]!.columns[6]!.meta_data!;
    expect(Number(ids(smallPages).num_values)).toBe(Number(ids(onePage).num_values));
    expect(
      Number(ids(smallPages).total_uncompressed_size) -
        Number(ids(onePage).total_uncompressed_size),
    ).toBeGreaterThan(9 * 10);
  });

  it('rejects bad values naming the column, and abort leaves no file', async () => {
    const dir = tempDir();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...sampleRows(1)[0], name: null }, /parquet column name: null in a non-nullable column/],
      [
        { ...sampleRows(1)[0], ids: [1, 2.5] },
        /parquet column ids: expected 32-bit integers, got 2.5/,
      ],
      [{ ...sampleRows(1)[0], ids: [2 ** 31] }, /parquet column ids: expected 32-bit integers/],
      [{ ...sampleRows(1)[0], ids: 'x' }, /parquet column ids: expected a list, got string/],
      [{ ...sampleRows(1)[0], probs: [0.5, '1'] }, /parquet column probs: expected numbers/],
      [{ ...sampleRows(1)[0], flag: 1 }, /parquet column flag: expected a boolean, got number/],
    ];
    for (const [row, message] of cases) {
      const sink = new ColumnarParquetSink(join(dir, 'bad.parquet'), COLUMNS, { rowGroupSize: 10 });
      const failure = await sink.write(row).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ValidationError);
      expect((failure as Error).message).toMatch(message);
      await sink.abort();
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('verl Parquet = verl JSONL', () => {
  for (const [parquet, jsonl] of [
    ['verl-parquet', 'verl-jsonl'],
    ['verl-trajectory-parquet', 'verl-trajectory-jsonl'],
  ] as const) {
    it(`${parquet} holds the rows of ${jsonl}, in row groups of rowGroupSize`, async () => {
      const records = () => SCENARIO.map(recordOf);
      const { rows } = await exportJsonl(records(), { format: jsonl });
      const out = join(tempDir(), 'rows.parquet');
      const summary = await writeExport(records(), { format: parquet, out, rowGroupSize: 3 });
      expect(existsSync(`${out}.partial`)).toBe(false);
      const read = await readParquet(out);
      expect(read.rows).toEqual(rows);
      expect(read.metadata.row_groups).toHaveLength(Math.ceil(summary.rows / 3));
      expect(read.metadata.key_value_metadata).toEqual([
        { key: 'arclight.format', value: parquet },
      ]);
    });
  }
});
