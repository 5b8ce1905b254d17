import type * as z from 'zod';
import { ResourcesUpdateSchema } from './resources.js';
import { AttemptSchema, RolloutSchema } from './rollout.js';
import { SpanSchema } from './span.js';
import { WorkerSchema } from './worker.js';

/** The wire models the store pages through, by upstream's class name. */
const MODELS = {
  Rollout: RolloutSchema,
  Attempt: AttemptSchema,
  ResourcesUpdate: ResourcesUpdateSchema,
  Worker: WorkerSchema,
  Span: SpanSchema,
} as const;

export type ModelName = keyof typeof MODELS;

interface ObjectSchemaLike {
  shape: Record<string, z.core.$ZodType>;
}

/** Wrappers that do not change what a field holds. */
const WRAPPERS = new Set(['nullable', 'optional', 'default', 'prefault', 'readonly', 'catch']);
/** Field types a store can sort by (upstream sorts by scalar columns only). */
const SCALARS = new Set(['string', 'number', 'int', 'boolean', 'enum', 'literal']);

type FieldDef = z.core.$ZodTypeDef & { innerType?: z.core.$ZodType; in?: z.core.$ZodType };

/** What a field holds, under its wrappers (and, for a pipe such as a coercion, what it accepts). */
function fieldType(schema: z.core.$ZodType): string {
  let def = schema._zod.def as FieldDef;
  for (;;) {
    const inner = WRAPPERS.has(def.type) ? def.innerType : def.type === 'pipe' ? def.in : undefined;
    if (!inner) return def.type;
    def = inner._zod.def as FieldDef;
  }
}

function fieldsOf(pick: (type: string) => boolean): Record<ModelName, readonly string[]> {
  const out = {} as Record<ModelName, readonly string[]>;
  for (const [name, schema] of Object.entries(MODELS) as unknown as [
    ModelName,
    ObjectSchemaLike,
  ][]) {
    out[name] = Object.freeze(
      Object.entries(schema.shape)
        .filter(([, field]) => pick(fieldType(field)))
        .map(([key]) => key),
    );
  }
  return Object.freeze(out);
}

/**
 * Field names of the wire models, in upstream's declaration order (read from the schemas): the `sort_by`
 * values the HTTP server accepts.
 */
export const MODEL_FIELDS: Readonly<Record<ModelName, readonly string[]>> = fieldsOf(() => true);

/** The scalar fields of each model (strings, numbers, enums): what the stores can sort by. */
export const SCALAR_MODEL_FIELDS: Readonly<Record<ModelName, readonly string[]>> = fieldsOf(
  (type) => SCALARS.has(type),
);
