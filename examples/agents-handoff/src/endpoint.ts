import { startFixtureLlm } from '@arclight/test-fixtures';
import { scriptedModel } from './scripted-model.js';

/** Where the agents' model calls go. */
export interface ModelEndpoint {
  baseURL: string;
  apiKey: string;
  model: string;
  /** Ask for vLLM's `return_token_ids` (the fixture server, or a vLLM endpoint with RETURN_TOKEN_IDS=1). */
  returnTokenIds: boolean;
  /** Chat requests the fixture server received (offline only). */
  servedRequests(): number | null;
  close(): Promise<void>;
}

export const DEFAULT_REMOTE_MODEL = 'gpt-4.1-mini';

/**
 * The real endpoint when OPENAI_BASE_URL and OPENAI_API_KEY are set (model OPENAI_MODEL), else the fixture
 * LLM server started in-process with the scripted model.
 */
export async function openModelEndpoint(env: NodeJS.ProcessEnv): Promise<ModelEndpoint> {
  const baseURL = env.OPENAI_BASE_URL;
  const apiKey = env.OPENAI_API_KEY;
  if (baseURL && apiKey) {
    return {
      baseURL,
      apiKey,
      model: env.OPENAI_MODEL || DEFAULT_REMOTE_MODEL,
      returnTokenIds: env.RETURN_TOKEN_IDS === '1',
      servedRequests: () => null,
      close: async () => {},
    };
  }
  const llm = await startFixtureLlm({ responders: [scriptedModel], recordings: false });
  return {
    baseURL: llm.baseUrl,
    apiKey: 'fixture',
    model: 'fixture-model',
    returnTokenIds: true,
    servedRequests: () => llm.requests.filter((r) => r.path === '/v1/chat/completions').length,
    close: () => llm.close(),
  };
}
