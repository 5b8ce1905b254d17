import {
  type AttributeBag,
  asArray,
  asIntArray,
  asRecord,
  asString,
  chatToolCalls,
  completionAttributes,
  type GenAIMessage,
  isRecord,
  type JsonRecord,
  logprobsAttributes,
  promptAttributes,
  type ToolCallRecord,
  type ToolDefinition,
  tokenIdAttributes,
  toolDefinitionAttributes,
} from '@arclight/core';
import { safeJson } from '@arclight/instrumentation';
import { AGENTS_ENCODING } from '../attribute-bag.js';
import {
  modelRequestAttributes,
  setResponseIdentity,
  setUsage,
  writeOptions,
} from './llm-attributes.js';

/**
 * A `generation` span (Chat Completions models) as an LLM call. `input` holds the chat messages sent and
 * `output` the raw `ChatCompletion` the provider returned — vendor fields included, so vLLM's
 * `prompt_token_ids` and `choices[i].token_ids` are there when the request asked for them. `requestTools`: the
 * tools the request offered (the span data lacks them). Returns the tool calls of the (first) completion.
 */
export function writeGenerationAttributes(
  bag: AttributeBag,
  data: JsonRecord,
  captureContent: boolean,
  requestTools: readonly ToolDefinition[] = [],
): ToolCallRecord[] {
  const options = writeOptions(captureContent);
  bag.merge(modelRequestAttributes(data.model, asRecord(data.model_config)));
  bag.merge(toolDefinitionAttributes(requestTools, { encoding: AGENTS_ENCODING }));
  bag.merge(promptAttributes(asArray(data.input).filter(isRecord), options));

  const outputs = asArray(data.output).filter(isRecord);
  const completion = outputs.find((item) => Array.isArray(item.choices));
  let toolCalls: ToolCallRecord[] = [];
  let usageWritten = false;
  if (completion) {
    setResponseIdentity(bag, completion);
    usageWritten = setUsage(bag, completion.usage);
    const choices = asArray(completion.choices).filter(isRecord);
    choices.forEach((choice, i) => {
      const calls = chatToolCalls(asRecord(choice.message) ?? {});
      bag.merge(completionAttributes(indexOf(choice, i), choiceCompletion(choice, calls), options));
      if (i === 0) toolCalls = calls;
    });
    const first = choices[0];
    bag.merge(
      tokenIdAttributes({
        prompt_token_ids: asIntArray(completion.prompt_token_ids),
        response_token_ids: first ? responseTokenIds(first) : undefined,
      }),
    );
    const logprobs = asRecord(first?.logprobs)?.content;
    if (captureContent && Array.isArray(logprobs) && logprobs.length > 0) {
      bag.merge(logprobsAttributes({ content: logprobs }, AGENTS_ENCODING));
    }
  } else {
    // Models other than OpenAIChatCompletionsModel may put plain messages in `output`.
    outputs
      .filter((item) => typeof item.role === 'string' || 'content' in item)
      .forEach((message, i) => {
        const calls = chatToolCalls(message);
        const record: GenAIMessage = {
          role: asString(message.role) ?? 'assistant',
          content: contentText(message.content),
          tool_calls: calls,
        };
        bag.merge(completionAttributes(i, record, options));
        if (i === 0) toolCalls = calls;
      });
  }
  if (!usageWritten) setUsage(bag, data.usage);
  return toolCalls;
}

/** A choice as a completion: role, finish reason, content, refusal and tool calls, in that order. */
function choiceCompletion(choice: JsonRecord, toolCalls: ToolCallRecord[]): GenAIMessage {
  const message = asRecord(choice.message) ?? {};
  return {
    role: asString(message.role) ?? 'assistant',
    finish_reason: asString(choice.finish_reason),
    content: contentText(message.content),
    refusal: asString(message.refusal),
    tool_calls: toolCalls,
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
  return safeJson(content);
}
