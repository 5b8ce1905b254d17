import type { AttributeBag } from '../attribute-bag.js';
import {
  asArray,
  asIntArray,
  asRecord,
  asString,
  isRecord,
  type JsonRecord,
  toJson,
} from '../json.js';
import { TokenAttributes } from '../keys.js';
import {
  type CompletionRecord,
  setCompletion,
  setPromptMessages,
  setRequestIdentity,
  setResponseIdentity,
  setSamplingParameters,
  setTokenIds,
  setUsage,
  type ToolCallRecord,
  toolCallsOf,
} from './llm-attributes.js';

/**
 * A `generation` span (Chat Completions models) as an LLM call. `input` holds the chat messages sent and
 * `output` the raw `ChatCompletion` the provider returned — vendor fields included, so vLLM's
 * `prompt_token_ids` and `choices[i].token_ids` are there when the request asked for them. Returns the tool
 * calls of the (first) completion.
 */
export function writeGenerationAttributes(
  bag: AttributeBag,
  data: JsonRecord,
  captureContent: boolean,
): ToolCallRecord[] {
  setRequestIdentity(bag, data.model);
  setSamplingParameters(bag, asRecord(data.model_config));
  const messages = asArray(data.input).filter(isRecord);
  setPromptMessages(bag, messages, captureContent);

  const outputs = asArray(data.output).filter(isRecord);
  const completion = outputs.find((item) => Array.isArray(item.choices));
  let toolCalls: ToolCallRecord[] = [];
  let usageWritten = false;
  if (completion) {
    setResponseIdentity(bag, completion);
    usageWritten = setUsage(bag, completion.usage);
    const choices = asArray(completion.choices).filter(isRecord);
    choices.forEach((choice, i) => {
      const record = choiceCompletion(choice);
      setCompletion(bag, indexOf(choice, i), record, captureContent);
      if (i === 0) toolCalls = record.toolCalls;
    });
    const first = choices[0];
    setTokenIds(bag, completion.prompt_token_ids, first ? responseTokenIds(first) : undefined);
    const logprobs = asRecord(first?.logprobs)?.content;
    if (captureContent && Array.isArray(logprobs) && logprobs.length > 0) {
      bag.setJson(TokenAttributes.LOGPROBS_CONTENT, logprobs);
    }
  } else {
    // Models other than OpenAIChatCompletionsModel may put plain messages in `output`.
    outputs
      .filter((item) => typeof item.role === 'string' || 'content' in item)
      .forEach((message, i) => {
        const record: CompletionRecord = {
          role: asString(message.role),
          content: contentText(message.content),
          toolCalls: toolCallsOf(message),
        };
        setCompletion(bag, i, record, captureContent);
        if (i === 0) toolCalls = record.toolCalls;
      });
  }
  if (!usageWritten) setUsage(bag, data.usage);
  return toolCalls;
}

function choiceCompletion(choice: JsonRecord): CompletionRecord {
  const message = asRecord(choice.message) ?? {};
  return {
    role: asString(message.role),
    content: contentText(message.content),
    refusal: asString(message.refusal),
    finishReason: asString(choice.finish_reason),
    toolCalls: toolCallsOf(message),
  };
}

function indexOf(choice: JsonRecord, fallback: number): number {
  const index = choice.index;
  return typeof index === 'number' && Number.isInteger(index) && index >= 0 ? index : fallback;
}

/** vLLM's `token_ids`; also Agent Lightning's old `response_token_ids[0]` and LiteLLM's provider fields. */
function responseTokenIds(choice: JsonRecord): number[] | undefined {
  return (
    asIntArray(choice.token_ids) ??
    asIntArray(asArray(choice.response_token_ids)[0]) ??
    asIntArray(asRecord(choice.provider_specific_fields)?.token_ids)
  );
}

/** Text of a message's content: the string, or multimodal parts as JSON (image urls stay recoverable). */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (content === undefined || content === null) return undefined;
  return toJson(content);
}
