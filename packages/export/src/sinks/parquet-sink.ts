import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import { OutputFile } from './output-file.js';
import type { SchemaElement, SchemaTree } from './parquet-nested.js';
import type { RowSink } from './sink.js';

export type ParquetColumnType = 'string' | 'int32' | 'double' | 'boolean' | 'int32[]' | 'double[]';

export interface ParquetColumn {
  name: string;
  /** `nested`: a struct/list column described by `tree` (see parquet-nested.ts). */
  type: ParquetColumnType | 'nested';
  /** Nullable columns are OPTIONAL; lists are never null inside. */
  nullable: boolean;
  /** For `nested` columns: the column's schema subtree (its first element is named `name`). */
  tree?: SchemaTree;
}

const PRIMITIVE: Record<string, Pick<SchemaElement, 'type' | 'converted_type'>> = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  int32: { type: 'INT32' },
  double: { type: 'DOUBLE' },
  boolean: { type: 'BOOLEAN' },
};

/** Parquet schema elements: scalars, and lists in the standard 3-level LIST layout (`list<element>`). */
export function schemaElements(columns: readonly ParquetColumn[]): SchemaElement[] {
  const schema: SchemaElement[] = [{ name: 'root', num_children: columns.length }];
  for (const column of columns) {
    const repetition_type = column.nullable ? 'OPTIONAL' : 'REQUIRED';
    if (column.type === 'nested') {
      const [head, ...rest] = column.tree ?? [];
      if (!head) throw new Error(`parquet column ${column.name}: nested without a schema tree`);
      schema.push({ ...head, name: column.name, repetition_type }, ...rest);
    } else if (column.type.endsWith('[]')) {
      schema.push(
        { name: column.name, repetition_type, converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', repetition_type: 'REQUIRED', ...PRIMITIVE[column.type.slice(0, -2)] },
      );
    } else {
      schema.push({ name: column.name, repetition_type, ...PRIMITIVE[column.type] });
    }
  }
  return schema;
}

/**
 * Parquet through hyparquet-writer: rows are buffered column-wise and written as one row group every
 * `rowGroupSize` rows (memory: one row group), pages Snappy-compressed (dictionary-encoded where that pays),
 * the footer written on close.
 */
export class ParquetSink<Row extends Record<string, unknown>> implements RowSink<Row> {
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
