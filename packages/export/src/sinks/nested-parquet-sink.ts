import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import { OutputFile } from './output-file.js';
import { type ParquetColumn, schemaElements } from './parquet-schema.js';
import type { RowSink } from './sink.js';

/**
 * Parquet through hyparquet-writer (any schema, including nested columns): rows are buffered column-wise and written as one row group every
 * `rowGroupSize` rows (memory: one row group), pages Snappy-compressed (dictionary-encoded where that pays),
 * the footer written on close.
 */
export class NestedParquetSink<Row extends Record<string, unknown>> implements RowSink<Row> {
  private readonly file: OutputFile;
  private readonly writer: ParquetWriter;
  private buffers: unknown[][];
  private buffered = 0;

  constructor(
    out: string,
    private readonly columns: readonly ParquetColumn[],
    private readonly rowGroupSize: number,
    metadata: Record<string, string> = {},
  ) {
    this.file = new OutputFile(out);
    this.writer = new ParquetWriter({
      writer: fileWriter(this.file.partialPath),
      schema: schemaElements(columns),
      kvMetadata: Object.entries(metadata).map(([key, value]) => ({ key, value })),
      createdBy: 'arclight-export (hyparquet-writer)',
    });
    this.buffers = columns.map(() => []);
  }

  async write(row: Row): Promise<void> {
    for (let i = 0; i < this.columns.length; i++) {
      const value = row[this.columns[i]!.name];
      this.buffers[i]!.push(value === undefined ? null : value);
    }
    this.buffered++;
    if (this.buffered >= this.rowGroupSize) await this.flushRowGroup();
  }

  private async flushRowGroup(): Promise<void> {
    if (this.buffered === 0) return;
    // Min/max statistics of token-id lists are useless and cost half the write time: scalars only.
    const columnData = this.columns.map((column, i) => ({
      name: column.name,
      data: this.buffers[i]!,
      statistics: !column.type.endsWith('[]') && column.type !== 'nested',
    }));
    await this.writer.write({ columnData, rowGroupSize: this.buffered });
    this.buffers = this.columns.map(() => []);
    this.buffered = 0;
  }

  async close(): Promise<void> {
    await this.flushRowGroup();
    await this.writer.finish();
    this.file.commit();
  }

  async abort(): Promise<void> {
    this.file.discard();
  }
}
