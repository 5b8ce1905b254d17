import { describe, expect, it } from 'vitest';
import {
  LLM,
  NamedResourcesSchema,
  PromptTemplate,
  ProxyLLM,
  parseNamedResources,
  parseResource,
  parseResourcesUpdate,
  parseTriplet,
  parseWorker,
  ValidationError,
} from '../src/index.js';

describe('resources', () => {
  it('parses each resource type to its class, so methods work', () => {
    const llm = parseResource({ resource_type: 'llm', endpoint: 'http://h/v1', model: 'm' });
    const proxy = parseResource({
      resource_type: 'proxy_llm',
      endpoint: 'http://h/v1',
      model: 'm',
    });
    const prompt = parseResource({
      resource_type: 'prompt_template',
      template: 'Hi {n}',
      engine: 'f-string',
    });
    expect(llm).toBeInstanceOf(LLM);
    expect(llm).not.toBeInstanceOf(ProxyLLM);
    expect(proxy).toBeInstanceOf(ProxyLLM);
    expect(prompt).toBeInstanceOf(PromptTemplate);
    expect((proxy as ProxyLLM).getBaseUrl('ro-1', 'at-1')).toBe(
      'http://h/rollout/ro-1/attempt/at-1/v1',
    );
    expect((prompt as PromptTemplate).format({ n: 'x' })).toBe('Hi x');
  });

  it('serialises to exactly the upstream model_dump shape and key order', () => {
    const llm = parseResource({ model: 'm', endpoint: 'http://h', resource_type: 'llm', junk: 1 });
    expect(JSON.stringify(llm)).toBe(
      '{"resource_type":"llm","endpoint":"http://h","model":"m","api_key":null,"sampling_parameters":{}}',
    );
    const proxy = parseResource({
      resource_type: 'proxy_llm',
      endpoint: 'http://h',
      model: 'm',
      api_key: 'k',
      sampling_parameters: { temperature: 0.7 },
    });
    expect(JSON.stringify(proxy)).toBe(
      '{"resource_type":"proxy_llm","endpoint":"http://h","model":"m","api_key":"k","sampling_parameters":{"temperature":0.7}}',
    );
    const prompt = parseResource({
      engine: 'jinja',
      template: 't',
      resource_type: 'prompt_template',
    });
    expect(JSON.stringify(prompt)).toBe(
      '{"resource_type":"prompt_template","template":"t","engine":"jinja"}',
    );
  });

  it('requires and checks the resource_type discriminator', () => {
    expect(() => parseNamedResources({ main: { endpoint: 'e', model: 'm' } })).toThrow(
      'resources.main.resource_type: required (expected one of "llm" | "proxy_llm" | "prompt_template")',
    );
    expect(() =>
      parseNamedResources({ main: { resource_type: 'gpt', endpoint: 'e', model: 'm' } }),
    ).toThrow(
      'resources.main.resource_type: expected one of "llm" | "proxy_llm" | "prompt_template", got "gpt"',
    );
  });

  it('names missing and invalid resource fields', () => {
    expect(() => parseResource({ resource_type: 'llm', endpoint: 'e' })).toThrow(
      'resource.model: required (expected string)',
    );
    expect(() =>
      parseResource({ resource_type: 'prompt_template', template: 't', engine: 'mustache' }),
    ).toThrow('resource.engine: expected one of "jinja" | "f-string" | "poml", got "mustache"');
    expect(() =>
      parseResource({ resource_type: 'llm', endpoint: 'e', model: 'm', sampling_parameters: [] }),
    ).toThrow(ValidationError);
  });

  it('parses a ResourcesUpdate with named resources', () => {
    const json = {
      resources_id: 'rs-0123456789ab',
      create_time: 1.5,
      update_time: 2.5,
      version: 2,
      resources: {
        main_llm: {
          resource_type: 'llm',
          endpoint: 'http://localhost:8080',
          model: 'llama3',
          api_key: null,
          sampling_parameters: { temperature: 0.7, max_tokens: 100 },
        },
        system_prompt: {
          resource_type: 'prompt_template',
          template: 'You are helpful.',
          engine: 'f-string',
        },
      },
    };
    const update = parseResourcesUpdate(json);
    expect(update.resources.main_llm).toBeInstanceOf(LLM);
    expect(JSON.stringify(update)).toBe(JSON.stringify(json));
    expect(() => parseResourcesUpdate({ ...json, version: 'v2' })).toThrow(
      'resources_update.version: expected number, got "v2"',
    );
  });

  it('exports a usable NamedResources schema', () => {
    const parsed = NamedResourcesSchema.parse({
      a: { resource_type: 'llm', endpoint: 'e', model: 'm' },
    });
    expect(parsed.a).toBeInstanceOf(LLM);
  });
});

describe('Worker and Triplet', () => {
  it('fills worker defaults and strips unknown keys', () => {
    expect(parseWorker({ worker_id: 'Worker-0', extra: true })).toEqual({
      worker_id: 'Worker-0',
      status: 'unknown',
      heartbeat_stats: null,
      last_heartbeat_time: null,
      last_dequeue_time: null,
      last_busy_time: null,
      last_idle_time: null,
      current_rollout_id: null,
      current_attempt_id: null,
    });
    expect(() => parseWorker({ worker_id: 'w', status: 'sleeping' })).toThrow(
      'worker.status: expected one of "idle" | "busy" | "unknown", got "sleeping"',
    );
  });

  it('fills triplet defaults and requires prompt and response', () => {
    expect(parseTriplet({ prompt: { token_ids: [1] }, response: null })).toEqual({
      prompt: { token_ids: [1] },
      response: null,
      reward: null,
      metadata: {},
    });
    expect(() => parseTriplet({ prompt: 'p', reward: 'high' })).toThrow(
      'triplet.response: required; triplet.reward: expected number, got "high"',
    );
  });
});
