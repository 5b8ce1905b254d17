import { LLM } from '@arclight/core';
import { type FixtureLlm, roomSelectorResponders, startFixtureLlm } from '@arclight/test-fixtures';
import OpenAI from 'openai';

/** Which models the demo uses: a real OpenAI-compatible endpoint, or the offline simulated one. */
export interface ModelSetup {
  /** The agent's LLM (published to runners as the `main_llm` resource). */
  llm: LLM;
  /** APO's client for critiques and edits. */
  apoClient: OpenAI;
  gradientModel: string;
  applyEditModel: string;
  /** Ask the server for token ids (vLLM's `return_token_ids`; the fixture server has them). */
  requestTokenIds: boolean;
  simulated: boolean;
  /** One line for the console. */
  description: string;
  close(): Promise<void>;
}

export type DemoEnv = Record<string, string | undefined>;

/** True when the environment names a real endpoint (OPENAI_BASE_URL or OPENAI_API_KEY). */
export const wantsRealModel = (env: DemoEnv): boolean =>
  Boolean(env.OPENAI_BASE_URL || env.OPENAI_API_KEY);

/**
 * Offline: starts the fixture LLM server with the simulated room-selector model and APO's simulated critic
 * and editor (`@arclight/test-fixtures`). With OPENAI_BASE_URL / OPENAI_API_KEY: that endpoint, model
 * OPENAI_MODEL (default gpt-4.1-mini), for the agent and for APO. The API key is not put in the resources
 * (they are stored): the agent reads OPENAI_API_KEY itself.
 */
export async function setupModel(env: DemoEnv, offline = false): Promise<ModelSetup> {
  if (!offline && wantsRealModel(env)) {
    const baseURL = env.OPENAI_BASE_URL || 'https://api.openai.com/v1';
    const model = env.OPENAI_MODEL || 'gpt-4.1-mini';
    return {
      llm: new LLM({ endpoint: baseURL, model, sampling_parameters: { temperature: 0 } }),
      apoClient: new OpenAI({ baseURL, apiKey: env.OPENAI_API_KEY || 'unused' }),
      gradientModel: model,
      applyEditModel: model,
      requestTokenIds: env.ARCLIGHT_REQUEST_TOKEN_IDS === '1',
      simulated: false,
      description: `LLM: ${model} at ${baseURL} (agent and APO)`,
      close: async () => {},
    };
  }
  const fixture: FixtureLlm = await startFixtureLlm({
    recordings: false,
    responders: roomSelectorResponders(),
  });
  return {
    llm: new LLM({
      endpoint: fixture.baseUrl,
      model: 'simulated-room-selector',
      sampling_parameters: { temperature: 0 },
    }),
    apoClient: new OpenAI({ baseURL: fixture.baseUrl, apiKey: 'fixture', maxRetries: 0 }),
    gradientModel: 'simulated-critic',
    applyEditModel: 'simulated-editor',
    requestTokenIds: true,
    simulated: true,
    description:
      `LLM: SIMULATED (offline) — a rule-based stand-in for the model, critic and editor at ${fixture.baseUrl}; ` +
      'its answers follow the rules the prompt states. Set OPENAI_BASE_URL / OPENAI_API_KEY (and OPENAI_MODEL) ' +
      'to use a real model.',
    close: () => fixture.close(),
  };
}
