/** Tunable resources (Agent Lightning v0.x `types/resources.py`): plain wire fields plus behaviour. */

import { ValidationError } from '../errors.js';
import { formatFString } from '../prompt/f-string.js';

export { formatFString };

export interface LLMFields {
  endpoint: string;
  model: string;
  api_key?: string | null;
  sampling_parameters?: Record<string, unknown>;
}

/** An OpenAI-compatible LLM endpoint and its sampling configuration. */
export class LLM {
  readonly resource_type: 'llm' | 'proxy_llm' = 'llm';
  endpoint: string;
  model: string;
  api_key: string | null;
  sampling_parameters: Record<string, unknown>;

  constructor(fields: LLMFields) {
    this.endpoint = fields.endpoint;
    this.model = fields.model;
    this.api_key = fields.api_key ?? null;
    this.sampling_parameters = { ...(fields.sampling_parameters ?? {}) };
  }

  /** The base URL for OpenAI-compatible clients; a plain LLM ignores the rollout. */
  getBaseUrl(_rolloutId?: string | null, _attemptId?: string | null): string {
    return this.endpoint;
  }
}

/** An LLM reached through an LLM proxy that routes by rollout and attempt. */
export class ProxyLLM extends LLM {
  override readonly resource_type = 'proxy_llm' as const;

  /**
   * Upstream's rules: both ids absent → the raw endpoint; exactly one absent → error; otherwise strip one
   * trailing `/` and a trailing `/v1`, append `/rollout/{r}/attempt/{a}`, and re-append `/v1` if it was there.
   */
  override getBaseUrl(rolloutId?: string | null, attemptId?: string | null): string {
    if (rolloutId == null && attemptId == null) return this.endpoint;
    if (typeof rolloutId !== 'string' || typeof attemptId !== 'string') {
      throw new ValidationError(
        `ProxyLLM.getBaseUrl: rolloutId and attemptId must both be strings or both be absent ` +
          `(got rolloutId=${String(rolloutId)}, attemptId=${String(attemptId)})`,
      );
    }
    let prefix = this.endpoint.endsWith('/') ? this.endpoint.slice(0, -1) : this.endpoint;
    const hasV1 = prefix.endsWith('/v1');
    if (hasV1) prefix = prefix.slice(0, -3);
    prefix += `/rollout/${rolloutId}/attempt/${attemptId}`;
    return hasV1 ? `${prefix}/v1` : prefix;
  }

  /** A concrete LLM whose endpoint is routed for the given rollout attempt. */
  withAttemptedRollout(rollout: { rollout_id: string; attempt: { attempt_id: string } }): LLM {
    return new LLM({
      endpoint: this.getBaseUrl(rollout.rollout_id, rollout.attempt.attempt_id),
      model: this.model,
      api_key: this.api_key,
      sampling_parameters: this.sampling_parameters,
    });
  }
}

export const PROMPT_ENGINES = ['jinja', 'f-string', 'poml'] as const;
export type PromptEngine = (typeof PROMPT_ENGINES)[number];

export interface PromptTemplateFields {
  template: string;
  engine: PromptEngine;
}

/** A prompt template; `format` supports the `f-string` engine (Python `str.format` syntax). */
export class PromptTemplate {
  readonly resource_type = 'prompt_template' as const;
  template: string;
  engine: PromptEngine;

  constructor(fields: PromptTemplateFields) {
    this.template = fields.template;
    this.engine = fields.engine;
  }

  format(values: Record<string, unknown>): string {
    if (this.engine !== 'f-string') {
      throw new ValidationError(
        `PromptTemplate.format supports only the "f-string" engine, not engine "${this.engine}"`,
      );
    }
    return formatFString(this.template, values);
  }
}

export type Resource = LLM | ProxyLLM | PromptTemplate;
export type ResourceType = Resource['resource_type'];
export type NamedResources = Record<string, Resource>;

export interface ResourcesUpdate {
  resources_id: string;
  create_time: number;
  update_time: number;
  version: number;
  resources: NamedResources;
}
