import * as z from 'zod';
import type { Triplet } from '../types/triplet.js';
import { AnyRequiredSchema, JsonObjectSchema } from './common.js';
import { parseWith } from './format-error.js';

/** Upstream `Triplet`: `prompt` and `response` are required (any value), `reward` a float or null. */
export const TripletSchema = z.compile(
  z.object({
    prompt: AnyRequiredSchema,
    response: AnyRequiredSchema,
    reward: z.number().nullable().default(null),
    metadata: JsonObjectSchema.default(() => ({})),
  }),
);

export const parseTriplet = (value: unknown, label = 'triplet'): Triplet =>
  parseWith(TripletSchema, value, label);
