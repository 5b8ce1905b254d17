import { AttributeBag, type AttributeEncoding, type AttributeRecord } from './attribute-bag.js';
import { asRecord, asString } from './json-readers.js';
import { GenAI } from './keys.js';

/** A tool offered to the model: `gen_ai.request.functions.N.name|description|parameters`. */
export interface ToolDefinition {
  name: string;
  description?: string;
  /** The parameters' JSON schema (written as JSON text). */
  parameters?: unknown;
}

/** Where {@link readToolDefinitions} finds a definition's fields. */
export interface ToolDefinitionShape {
  /** Keys tried in order for the parameters schema. Default: `parameters`, then custom tools' `format`. */
  schemaKeys?: readonly string[];
  /** Read custom tools (`{type: 'custom', custom: {name, description, format}}`). Default true. */
  customTools?: boolean;
}

const DEFAULT_SCHEMA_KEYS = ['parameters', 'format'] as const;

/**
 * Reads tool definitions: Chat tools (`{type: 'function', function: {…}}`), legacy `functions`, custom tools
 * and flat shapes (`{type: 'function', name, …}`, the Responses API's). Entries without a name are skipped.
 */
export function readToolDefinitions(
  items: readonly unknown[],
  shape: ToolDefinitionShape = {},
): ToolDefinition[] {
  const schemaKeys = shape.schemaKeys ?? DEFAULT_SCHEMA_KEYS;
  const definitions: ToolDefinition[] = [];
  for (const item of items) {
    const tool = asRecord(item);
    if (!tool) continue;
    const custom = shape.customTools === false ? undefined : asRecord(tool.custom);
    const fn = asRecord(tool.function) ?? custom ?? tool;
    const name = asString(fn.name);
    if (name === undefined) continue;
    let parameters: unknown;
    for (const key of schemaKeys) parameters ??= fn[key];
    definitions.push({ name, description: asString(fn.description), parameters });
  }
  return definitions;
}

/** What {@link toolDefinitionAttributes} writes. */
export interface ToolDefinitionOptions {
  /** Write descriptions and parameter schemas besides the names. Default true. */
  details?: boolean;
  encoding?: AttributeEncoding;
}

/** `gen_ai.request.functions.N.name|description|parameters` (parameters as JSON text). */
export function toolDefinitionAttributes(
  definitions: readonly ToolDefinition[],
  options: ToolDefinitionOptions = {},
): AttributeRecord {
  const bag = new AttributeBag(options.encoding);
  definitions.forEach((definition, index) => {
    const prefix = `${GenAI.REQUEST_FUNCTIONS}.${index}`;
    bag.set(`${prefix}.name`, definition.name);
    if (options.details === false) return;
    bag.set(`${prefix}.description`, definition.description);
    bag.setJson(`${prefix}.parameters`, definition.parameters);
  });
  return bag.attributes;
}
