import * as z from 'zod';
import {
  LLM,
  type NamedResources,
  PROMPT_ENGINES,
  PromptTemplate,
  ProxyLLM,
  type Resource,
  type ResourcesUpdate,
} from '../types/resources.js';
import { FloatSchema, IntSchema, JsonObjectSchema, OptionalStringSchema } from './common.js';
import { parseWith } from './format-error.js';

const llmFields = {
  endpoint: z.string(),
  model: z.string(),
  api_key: OptionalStringSchema,
  sampling_parameters: JsonObjectSchema.default(() => ({})),
};

/** Upstream `LLM`; parses to an {@link LLM} instance. */
export const LLMSchema = z
  .object({ resource_type: z.literal('llm'), ...llmFields })
  .transform((fields) => new LLM(fields));

/** Upstream `ProxyLLM`; parses to a {@link ProxyLLM} instance. */
export const ProxyLLMSchema = z
  .object({ resource_type: z.literal('proxy_llm'), ...llmFields })
  .transform((fields) => new ProxyLLM(fields));

/** Upstream `PromptTemplate`; parses to a {@link PromptTemplate} instance. */
export const PromptTemplateSchema = z
  .object({
    resource_type: z.literal('prompt_template'),
    template: z.string(),
    engine: z.enum(PROMPT_ENGINES),
  })
  .transform((fields) => new PromptTemplate(fields));

/** Upstream `ResourceUnion`: discriminated on `resource_type` (which is therefore required on the wire). */
export const ResourceSchema = z.compile(
  z.discriminatedUnion('resource_type', [LLMSchema, ProxyLLMSchema, PromptTemplateSchema]),
);

/** Upstream `NamedResources`: resource name → resource. */
export const NamedResourcesSchema = z.compile(z.record(z.string(), ResourceSchema));

/** Upstream `ResourcesUpdate`. */
export const ResourcesUpdateSchema = z.compile(
  z.object({
    resources_id: z.string(),
    create_time: FloatSchema,
    update_time: FloatSchema,
    version: IntSchema,
    resources: NamedResourcesSchema,
  }),
);

export const parseResource = (value: unknown, label = 'resource'): Resource =>
  parseWith(ResourceSchema, value, label);

export const parseNamedResources = (value: unknown, label = 'resources'): NamedResources =>
  parseWith(NamedResourcesSchema, value, label);

export const parseResourcesUpdate = (value: unknown, label = 'resources_update'): ResourcesUpdate =>
  parseWith(ResourcesUpdateSchema, value, label);
