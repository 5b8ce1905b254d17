import { LLM } from '@arclight/core';
import { type FixtureLlm, roomSelectorResponders, startFixtureLlm } from '@arclight/test-fixtures';
import { REAL_MODEL_NAME, startRealEngine } from '@arclight/test-fixtures/real-engine';
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
  /** What kind of model answered: the offline simulated one, the real offline one, or an OpenAI-compatible API. */
  kind: 'simulated' | 'real-offline' | 'api';
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
export async function setupModel(
  env: DemoEnv,
  offline = false,
  realModel = false,
): Promise<ModelSetup> {
  if (realModel) return setupRealModel();
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
      kind: 'api',
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
    kind: 'simulated',
    description:
      `LLM: SIMULATED (offline) — a rule-based stand-in for the model, critic and editor at ${fixture.baseUrl}; ` +
      'its answers follow the rules the prompt states. Set OPENAI_BASE_URL / OPENAI_API_KEY (and OPENAI_MODEL) ' +
      'to use a real model.',
    close: () => fixture.close(),
  };
}

/**
 * `--real-model`: SmolLM2-135M-Instruct, a real 135M-parameter instruct model, served offline on the CPU by the
 * real-engine server (`@arclight/test-fixtures/real-engine`; engine and model fetched once by scripts/real-model.sh).
 * It is the agent, the critic and the editor. Its tokens are really sampled and traced with their ids; its answers are
 * those of a very small model.
 */
async function setupRealModel(): Promise<ModelSetup> {
  const engine = await startRealEngine();
  return {
    llm: new LLM({
      endpoint: engine.baseUrl,
      model: REAL_MODEL_NAME,
      sampling_parameters: { temperature: 0, max_tokens: 96 },
    }),
    apoClient: new OpenAI({ baseURL: engine.baseUrl, apiKey: 'real-engine', maxRetries: 0 }),
    gradientModel: REAL_MODEL_NAME,
    applyEditModel: REAL_MODEL_NAME,
    requestTokenIds: true,
    simulated: false,
    kind: 'real-offline',
    description:
      `LLM: ${REAL_MODEL_NAME} (real, offline, CPU) at ${engine.baseUrl} — agent, critic and editor. ` +
      'A 135M model rarely calls the tool or follows the room rules, and its critiques and edits are weak: expect ' +
      'rewards near 0 and prompts that APO cannot improve much. What is real: every token is sampled by the model and ' +
      'traced with the ids it consumed and produced.',
    close: () => engine.close(),
  };
}
