import type { ParquetWriter } from 'hyparquet-writer';

/**
 * Builders for nested Parquet columns (structs and lists in the standard 3-level LIST layout), written by
 * hyparquet-writer's Dremel encoder and read by pyarrow/pandas as lists of dicts.
 */
export type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number];

/** A schema subtree: the column's own element first, then its descendants depth-first. */
export type SchemaTree = SchemaElement[];

const repetition = (optional: boolean): 'OPTIONAL' | 'REQUIRED' =>
  optional ? 'OPTIONAL' : 'REQUIRED';

export const stringField = (name: string, optional = true): SchemaTree => [
  { name, repetition_type: repetition(optional), type: 'BYTE_ARRAY', converted_type: 'UTF8' },
];

export const int32Field = (name: string, optional = true): SchemaTree => [
  { name, repetition_type: repetition(optional), type: 'INT32' },
];

export const doubleField = (name: string, optional = true): SchemaTree => [
  { name, repetition_type: repetition(optional), type: 'DOUBLE' },
];

export const structField = (name: string, children: SchemaTree[], optional = true): SchemaTree => [
  { name, repetition_type: repetition(optional), num_children: children.length },
  ...children.flat(),
];

/** `list<element>`; `element` is the item's subtree (its own name is replaced by `element`). */
export function listField(name: string, element: SchemaTree, optional = true): SchemaTree {
  const [head, ...rest] = element;
  return [
    { name, repetition_type: repetition(optional), converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { ...head!, name: 'element', repetition_type: 'REQUIRED' },
    ...rest,
  ];
}

/** OpenAI chat messages: `list<struct<role, content, tool_calls?, tool_call_id?, name?>>`. */
export const messagesField = (name: string): SchemaTree =>
  listField(
    name,
    structField('message', [
      stringField('role', false),
      stringField('content'),
      listField(
        'tool_calls',
        structField('tool_call', [
          stringField('id'),
          stringField('type'),
          structField('function', [stringField('name'), stringField('arguments')]),
        ]),
      ),
      stringField('tool_call_id'),
      stringField('name'),
    ]),
    false,
  );

/** OpenAI tool definitions: `list<struct<type, function: struct<name, description, parameters (JSON text)>>>`. */
export const toolsField = (name: string): SchemaTree =>
  listField(
    name,
    structField('tool', [
      stringField('type'),
      structField('function', [
        stringField('name'),
        stringField('description'),
        stringField('parameters'),
      ]),
    ]),
  );
