import {
  type AttributeRecord,
  asArray,
  asString,
  chatSamplingParameters,
  GEN_AI_SYSTEM_OPENAI,
  type JsonRecord,
  type LlmRequestParameters,
  readToolDefinitions,
  stopSequences,
  toolDefinitionAttributes,
} from '@arclight/core';

/** `gen_ai.system`, `gen_ai.request.type` and the sampling parameters shared by all endpoints. */
export function commonRequestParameters(
  body: JsonRecord,
  requestType: 'chat' | 'completion',
  maxTokens: unknown,
): LlmRequestParameters {
  return {
    type: requestType,
    system: GEN_AI_SYSTEM_OPENAI,
    model: asString(body.model),
    max_tokens: maxTokens,
    ...chatSamplingParameters(body),
    stop: stopSequences(body.stop),
    streaming: body.stream === true,
    return_token_ids: body.return_token_ids,
  };
}

/**
 * `gen_ai.request.functions.N.*` of Chat tools, legacy `functions`, custom tools and the flat Responses-API
 * shape.
 */
export function toolDefinitionsAttributes(body: JsonRecord): AttributeRecord {
  return toolDefinitionAttributes(
    readToolDefinitions([...asArray(body.functions), ...asArray(body.tools)]),
  );
}
