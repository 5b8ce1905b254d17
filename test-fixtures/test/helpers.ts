import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type FixtureLlm, type FixtureLlmOptions, startFixtureLlm } from '../src/index.js';

/** vLLM's extra request flag (not in the SDK's types; excess properties are fine via spread). */
export const RETURN_IDS = { return_token_ids: true } as Record<string, unknown>;

export interface VllmChoiceExtras {
  token_ids?: number[];
  stop_reason?: string | null;
}
export interface VllmRootExtras {
  prompt_token_ids?: number[];
}

/** Starts one fixture server for the file, resets it before each test; returns live accessors. */
export function useFixtureLlm(options: FixtureLlmOptions = {}) {
  const state = {} as { llm: FixtureLlm; client: OpenAI };
  beforeAll(async () => {
    state.llm = await startFixtureLlm(options);
    state.client = new OpenAI({ baseURL: state.llm.baseUrl, apiKey: 'test-key', maxRetries: 0 });
  });
  beforeEach(() => state.llm.reset());
  afterAll(async () => {
    await state.llm?.close();
  });
  return state;
}

export const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 2 },
      },
      required: ['city'],
    },
  },
};

export const timeTool = {
  type: 'function' as const,
  function: {
    name: 'get_time',
    parameters: { type: 'object', properties: { zone: { type: 'string', default: 'UTC' } } },
  },
};
