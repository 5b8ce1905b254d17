// Deterministic example arguments for a tool, built from its JSON schema: const / default / first enum /
// first example when given, otherwise a value of the declared type ("<name>-value", 1, true, …).
import type { JsonObject, JsonSchema } from '../types.js';

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null') ?? schema.type[0];
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

export function exampleValue(schema: JsonSchema | undefined, name: string, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 8) return `${name}-value`;
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema.allOf?.[0];
  if (variant && !schema.type && !schema.properties) return exampleValue(variant, name, depth + 1);
  switch (typeOf(schema)) {
    case 'object':
      return exampleArguments(schema, depth + 1);
    case 'array':
      return [exampleValue(schema.items, name, depth + 1)];
    case 'integer':
      return Math.ceil(schema.minimum ?? 1);
    case 'number':
      return schema.minimum ?? 1.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return `${name}-value`;
  }
}

/** An arguments object with every declared property, in declaration order. */
export function exampleArguments(schema: JsonSchema | undefined, depth = 0): JsonObject {
  const out: JsonObject = {};
  for (const [key, prop] of Object.entries(schema?.properties ?? {})) {
    out[key] = exampleValue(prop, key, depth);
  }
  return out;
}
