import {
  type AttemptedRollout,
  LLM,
  type LLMFields,
  type NamedResources,
  PromptTemplate,
  ProxyLLM,
  ValidationError,
} from '@arclight/core';
import type { RunnerLogger } from './logger.js';

/**
 * The first LLM resource (`llm` or `proxy_llm`) in insertion order, as upstream; several → a warning.
 * With `stripProxy`, a `ProxyLLM` becomes a plain `LLM` whose endpoint routes to this rollout attempt
 * (`…/rollout/{rollout_id}/attempt/{attempt_id}[/v1]`, upstream `with_attempted_rollout`).
 * No LLM resource → `ValidationError`.
 */
export function selectLlm(
  resources: NamedResources,
  rollout: AttemptedRollout,
  stripProxy: boolean,
  logger?: RunnerLogger,
): LLM {
  const names = Object.keys(resources).filter((name) => {
    const type = resources[name]?.resource_type;
    return type === 'llm' || type === 'proxy_llm';
  });
  const name = names[0];
  if (name === undefined) {
    throw new ValidationError(
      `rollout ${rollout.rollout_id}: no LLM resource among the resources (${describeNames(resources)})`,
    );
  }
  if (names.length > 1)
    logger?.warn(`Several LLM resources found; using the first one: '${name}'.`);
  const llm = asLlm(resources[name] as LLM);
  return stripProxy && llm instanceof ProxyLLM ? llm.withAttemptedRollout(rollout) : llm;
}

/** The first `PromptTemplate` resource in insertion order; several → a warning; none → `ValidationError`. */
export function selectPromptTemplate(
  resources: NamedResources,
  rollout: AttemptedRollout,
  logger?: RunnerLogger,
): PromptTemplate {
  const names = Object.keys(resources).filter(
    (name) => resources[name]?.resource_type === 'prompt_template',
  );
  const name = names[0];
  if (name === undefined) {
    throw new ValidationError(
      `rollout ${rollout.rollout_id}: no prompt_template resource among the resources (${describeNames(resources)})`,
    );
  }
  if (names.length > 1) {
    logger?.warn(`Several prompt template resources found; using the first one: '${name}'.`);
  }
  const template = resources[name] as PromptTemplate;
  if (template instanceof PromptTemplate) return template;
  const fields = template as { template: string; engine: PromptTemplate['engine'] };
  return new PromptTemplate({ template: fields.template, engine: fields.engine });
}

/** Resources parsed by another copy of `@arclight/core` (or plain JSON) become this copy's classes. */
function asLlm(resource: LLM): LLM {
  if (resource instanceof LLM) return resource;
  const plain = resource as { resource_type: string } & LLMFields;
  const fields: LLMFields = {
    endpoint: plain.endpoint,
    model: plain.model,
    api_key: plain.api_key,
    sampling_parameters: plain.sampling_parameters,
  };
  return plain.resource_type === 'proxy_llm' ? new ProxyLLM(fields) : new LLM(fields);
}

function describeNames(resources: NamedResources): string {
  const entries = Object.entries(resources).map(([n, r]) => `${n}: ${r?.resource_type}`);
  return entries.length > 0 ? entries.join(', ') : 'none';
}
