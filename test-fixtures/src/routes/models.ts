// GET /v1/models and GET /v1/models/{id}.
import type { ServerResponse } from 'node:http';
import { sendError, sendJson } from '../http.js';

export const FIXTURE_MAX_MODEL_LEN = 32_768;

function card(id: string, created: number) {
  return {
    id,
    object: 'model',
    created,
    owned_by: 'arclight-fixture',
    root: id,
    parent: null,
    max_model_len: FIXTURE_MAX_MODEL_LEN,
    permission: [],
  };
}

export function listModels(res: ServerResponse, models: readonly string[], created: number): void {
  sendJson(res, 200, { object: 'list', data: models.map((m) => card(m, created)) });
}

export function getModel(
  res: ServerResponse,
  models: readonly string[],
  id: string,
  created: number,
): void {
  if (!models.includes(id)) {
    sendError(res, {
      status: 404,
      message: `The model \`${id}\` does not exist.`,
      code: 'model_not_found',
    });
    return;
  }
  sendJson(res, 200, card(id, created));
}
