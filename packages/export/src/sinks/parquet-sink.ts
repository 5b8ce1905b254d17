import { ColumnarParquetSink } from './columnar-parquet-sink.js';
import { NestedParquetSink } from './nested-parquet-sink.js';
import type { ParquetColumn } from './parquet-schema.js';
import type { RowSink } from './sink.js';

export type { ParquetColumn, ParquetColumnType } from './parquet-schema.js';
export { schemaElements } from './parquet-schema.js';

/**
 * Parquet output of one format: flat schemas (scalars and lists of scalars, e.g. verl's token rows) go through
 * the columnar encoder of this package; schemas with struct/list-of-struct columns (verl-sft messages) through
 * hyparquet-writer's Dremel encoder. Both write a row group every `rowGroupSize` rows (memory: one row group).
 */
export class ParquetSink<Row extends Record<string, unknown>> implements RowSink<Row> {
  private readonly inner: RowSink<Row>;

  constructor(
    out: string,
    columns: readonly ParquetColumn[],
    rowGroupSize: number,
    metadata: Record<string, string> = {},
  ) {
    this.inner = columns.some((c) => c.type === 'nested')
      ? new NestedParquetSink<Row>(out, columns, rowGroupSize, metadata)
      : new ColumnarParquetSink<Row>(out, columns, { rowGroupSize, metadata });
  }

  write(row: Row): Promise<void> {
    return this.inner.write(row);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  abort(): Promise<void> {
    return this.inner.abort();
  }
}
