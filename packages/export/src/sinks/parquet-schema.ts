import type { SchemaElement, SchemaTree } from './parquet-nested.js';

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
