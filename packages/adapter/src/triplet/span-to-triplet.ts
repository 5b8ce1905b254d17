import {
  isDigitKey,
  isPlainRecord,
  parsePythonJson,
  type Span,
  type Triplet,
  ValidationError,
} from '@arclight/core';
import { firstIdList, firstUnflattened, responseIdOf } from './span-attributes.js';

/** Where the prompt token ids are looked up, in order (the second is the Weave tracer's). */
export const PROMPT_TOKEN_ID_KEYS = [
  'prompt_token_ids',
  'agentlightning.operation.output.prompt_token_ids',
] as const;

/** Where the response token ids are looked up, in order (Weave, Weave + newer vLLM, new vLLM + new SDK). */
export const RESPONSE_TOKEN_ID_KEYS = [
  'response_token_ids',
  'agentlightning.operation.output.response_token_ids.0',
  'agentlightning.operation.output.choices.0.token_ids',
  'agentlightning.operation.output.choices.0.provider_specific_fields.token_ids',
] as const;

/** `triplet.prompt` as upstream builds it. */
export interface TripletPrompt {
  token_ids: number[];
  /** Unflattened `gen_ai.prompt.*` (else `agentlightning.operation.input.messages.*`), or `null`. */
  raw_content: unknown;
  image_urls: unknown[];
}

/** `triplet.response` as upstream builds it. */
export interface TripletResponse {
  token_ids: number[];
  /** Unflattened `gen_ai.completion.*` (else `agentlightning.operation.output.choices.*`), or `null`. */
  raw_content: unknown;
  /** Parsed `logprobs.content` attribute; present only when the span has that attribute as a string. */
  logprobs?: unknown;
}

/**
 * Upstream `TraceTree.span_to_triplet`: the transition of one LLM span, reward `null`. Metadata holds the
 * unflattened `gen_ai.request.*` (else `agentlightning.operation.input.*` minus `messages`), the unflattened
 * `gen_ai.response.*` (else `agentlightning.operation.output.*` minus `choices`, `prompt_token_ids`,
 * `response_token_ids`), the response id and the agent name — each `null` when absent.
 */
export function spanToTriplet(span: Span, agentName: unknown): Triplet {
  const attributes = span.attributes ?? {};
  const promptTokenIds = firstIdList(attributes, PROMPT_TOKEN_ID_KEYS) ?? [];
  const responseTokenIds = firstIdList(attributes, RESPONSE_TOKEN_ID_KEYS) ?? [];
  const responseId = responseIdOf(attributes);
  const request = firstUnflattened(attributes, [
    'gen_ai.request',
    'agentlightning.operation.input',
  ]);
  const response = firstUnflattened(attributes, [
    'gen_ai.response',
    'agentlightning.operation.output',
  ]);
  if (isPlainRecord(request)) delete request.messages;
  if (isPlainRecord(response)) {
    delete response.choices;
    delete response.prompt_token_ids;
    delete response.response_token_ids;
  }
  const promptRaw = firstUnflattened(attributes, [
    'gen_ai.prompt',
    'agentlightning.operation.input.messages',
  ]);
  const completionRaw = firstUnflattened(attributes, [
    'gen_ai.completion',
    'agentlightning.operation.output.choices',
  ]);
  const prompt: TripletPrompt = {
    token_ids: promptTokenIds as number[],
    raw_content: promptRaw,
    image_urls: extractPromptImageUrls(promptRaw),
  };
  const responsePayload: TripletResponse = {
    token_ids: responseTokenIds as number[],
    raw_content: completionRaw,
  };
  const logprobs = Object.hasOwn(attributes, 'logprobs.content')
    ? attributes['logprobs.content']
    : undefined;
  if (typeof logprobs === 'string') {
    try {
      responsePayload.logprobs = parsePythonJson(logprobs);
    } catch (error) {
      throw new ValidationError(
        `span '${span.span_id}': attribute 'logprobs.content' is not JSON`,
        {
          cause: error,
        },
      );
    }
  }
  return {
    prompt,
    response: responsePayload,
    reward: null,
    metadata: { request, response, response_id: responseId, agent_name: agentName },
  };
}

/** JSON text whose value is a list: optional JSON whitespace, then `[`. */
const JSON_LIST_START = /^[ \t\n\r]*\[/;

/**
 * Upstream `extract_prompt_image_urls`: the `image_url.url` of every `{"type": "image_url"}` content part,
 * in order. The prompt is a list of messages, or an object — with digit keys, the messages are its digit
 * keys' values in numeric order; otherwise it is one message. A message's `content` may be a list of parts
 * or a JSON string of one (what AgentOps and `@arclight/instrumentation-openai` write); anything else is skipped.
 */
export function extractPromptImageUrls(promptRaw: unknown): unknown[] {
  let messages: unknown[];
  if (Array.isArray(promptRaw)) messages = promptRaw;
  else if (isPlainRecord(promptRaw)) {
    const digitKeys = Object.keys(promptRaw).filter(isDigitKey);
    messages =
      digitKeys.length > 0
        ? digitKeys.sort((a, b) => Number(a) - Number(b)).map((key) => promptRaw[key])
        : [promptRaw];
  } else return [];
  const urls: unknown[] = [];
  for (const message of messages) {
    if (!isPlainRecord(message) || !Object.hasOwn(message, 'content')) continue;
    let content = message.content;
    if (typeof content === 'string') {
      // Only a JSON list matters; anything else (plain text, mostly) is skipped without parsing.
      if (!JSON_LIST_START.test(content)) continue;
      try {
        content = parsePythonJson(content);
      } catch {
        continue;
      }
    }
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      if (!isPlainRecord(part) || part.type !== 'image_url') continue;
      const imageUrl = part.image_url;
      if (isPlainRecord(imageUrl) && Object.hasOwn(imageUrl, 'url')) urls.push(imageUrl.url);
    }
  }
  return urls;
}
