import { asArray, asIntArray, asRecord, asString, isRecord, type JsonRecord } from '@arclight/core';

/**
 * Anthropic Messages ↔ OpenAI Chat Completions, so Anthropic clients reach vLLM-like backends through their
 * chat route (which returns token ids) and their calls are recorded in the same chat layout.
 */

/** Clear 4xx text for a Messages request the gateway cannot translate; undefined when it is fine. */
export function messagesRequestProblem(body: JsonRecord): string | undefined {
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return 'messages: expected a non-empty array';
  }
  if (typeof body.max_tokens !== 'number') return 'max_tokens: expected a number';
  for (const [i, message] of body.messages.entries()) {
    if (!isRecord(message)) return `messages.${i}: expected an object`;
    if (message.role !== 'user' && message.role !== 'assistant') {
      return `messages.${i}.role: expected "user" or "assistant"`;
    }
  }
  return undefined;
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .filter(isRecord)
    .map((block) => (block.type === 'text' ? (asString(block.text) ?? '') : ''))
    .join('');
}

function imagePart(block: JsonRecord): JsonRecord | undefined {
  const source = asRecord(block.source);
  if (!source) return undefined;
  if (source.type === 'url') return { type: 'image_url', image_url: { url: source.url } };
  if (source.type === 'base64') {
    return {
      type: 'image_url',
      image_url: { url: `data:${source.media_type};base64,${source.data}` },
    };
  }
  return undefined;
}

/** The Chat Completions body of a Messages request. */
export function messagesToChat(body: JsonRecord): JsonRecord {
  const messages: JsonRecord[] = [];
  const system = blockText(body.system);
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const value of asArray(body.messages)) {
    const message = asRecord(value);
    if (!message) continue;
    if (typeof message.content === 'string') {
      messages.push({ role: message.role, content: message.content });
      continue;
    }
    const blocks = asArray(message.content).filter(isRecord);
    if (message.role === 'assistant') {
      const text = blockText(blocks);
      const toolCalls = blocks
        .filter((b) => b.type === 'tool_use')
        .map((b) => ({
          id: b.id,
          type: 'function',
          function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) },
        }));
      const out: JsonRecord = {
        role: 'assistant',
        content: text === '' && toolCalls.length > 0 ? null : text,
      };
      if (toolCalls.length > 0) out.tool_calls = toolCalls;
      messages.push(out);
      continue;
    }
    // user: tool results become tool messages (in order), the rest one user message.
    const parts: JsonRecord[] = [];
    for (const block of blocks) {
      if (block.type === 'tool_result') {
        messages.push({
          role: 'tool',
          tool_call_id: block.tool_use_id,
          content: blockText(block.content),
        });
      } else if (block.type === 'text') {
        parts.push({ type: 'text', text: block.text });
      } else if (block.type === 'image') {
        const part = imagePart(block);
        if (part) parts.push(part);
      }
    }
    if (parts.length > 0) {
      const textOnly = parts.every((p) => p.type === 'text');
      messages.push({
        role: 'user',
        content: textOnly ? parts.map((p) => p.text).join('') : parts,
      });
    }
  }
  const chat: JsonRecord = { model: body.model, messages, max_tokens: body.max_tokens };
  for (const key of ['temperature', 'top_p', 'top_k'] as const) {
    if (body[key] !== undefined) chat[key] = body[key];
  }
  if (Array.isArray(body.stop_sequences)) chat.stop = body.stop_sequences;
  const tools = asArray(body.tools).filter(isRecord);
  if (tools.length > 0) {
    chat.tools = tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.input_schema },
    }));
  }
  const choice = asRecord(body.tool_choice);
  if (choice?.type === 'auto') chat.tool_choice = 'auto';
  else if (choice?.type === 'any') chat.tool_choice = 'required';
  else if (choice?.type === 'none') chat.tool_choice = 'none';
  else if (choice?.type === 'tool')
    chat.tool_choice = { type: 'function', function: { name: choice.name } };
  if (body.stream === true) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return chat;
}

function stopReason(finish: string | undefined, stop: unknown): string {
  if (finish === 'length') return 'max_tokens';
  if (finish === 'tool_calls' || finish === 'function_call') return 'tool_use';
  if (typeof stop === 'string') return 'stop_sequence';
  return 'end_turn';
}

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text === '' ? '{}' : text);
  } catch {
    return {};
  }
}

function messageId(chatId: unknown): string {
  const id = asString(chatId) ?? `${Date.now()}`;
  return id.startsWith('msg_') ? id : `msg_${id.replace(/^chatcmpl-/, '')}`;
}

/**
 * The Messages response of a chat completion. vLLM's token ids ride along as `prompt_token_ids` /
 * `token_ids` (extra fields Anthropic clients ignore).
 */
export function chatToMessage(chat: JsonRecord, requestedModel: unknown): JsonRecord {
  const choice = asRecord(asArray(chat.choices)[0]) ?? {};
  const message = asRecord(choice.message) ?? {};
  const content: JsonRecord[] = [];
  const text = asString(message.content);
  if (text) content.push({ type: 'text', text });
  for (const call of asArray(message.tool_calls).filter(isRecord)) {
    const fn = asRecord(call.function) ?? {};
    content.push({
      type: 'tool_use',
      id: call.id,
      name: fn.name,
      input: parseInput(asString(fn.arguments) ?? ''),
    });
  }
  const usage = asRecord(chat.usage) ?? {};
  const out: JsonRecord = {
    id: messageId(chat.id),
    type: 'message',
    role: 'assistant',
    model: requestedModel ?? chat.model,
    content,
    stop_reason: stopReason(asString(choice.finish_reason), choice.stop_reason),
    stop_sequence: typeof choice.stop_reason === 'string' ? choice.stop_reason : null,
    usage: { input_tokens: usage.prompt_tokens ?? 0, output_tokens: usage.completion_tokens ?? 0 },
  };
  const promptIds = asIntArray(chat.prompt_token_ids);
  if (promptIds) out.prompt_token_ids = promptIds;
  const ids = asIntArray(choice.token_ids);
  if (ids) out.token_ids = ids;
  return out;
}

/** An error body in Anthropic's shape, from an OpenAI-shaped one (or plain text). */
export function anthropicError(status: number, text: string): JsonRecord {
  let message = text;
  let type =
    status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  try {
    const parsed = asRecord(asRecord(JSON.parse(text))?.error);
    message = asString(parsed?.message) ?? text;
    if (status === 401) type = 'authentication_error';
    if (status === 404) type = 'not_found_error';
  } catch {
    // not JSON: keep the text
  }
  return { type: 'error', error: { type, message } };
}

function event(name: string, data: JsonRecord): string {
  return `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
}

/** Chat Completions chunks → Messages stream events (`message_start` … `message_stop`). */
export class MessagesStreamTranslator {
  private started = false;
  private finished = false;
  private blockIndex = -1;
  private openBlock: 'text' | 'tool' | undefined;
  private toolIndex = new Map<number, number>();
  private finish: string | undefined;
  private stop: unknown;
  private outputTokens = 0;

  constructor(private readonly model: unknown) {}

  /** The events for one chat chunk. */
  chunk(chunk: JsonRecord): string {
    let out = '';
    if (!this.started) {
      this.started = true;
      out += event('message_start', {
        message: {
          id: messageId(chunk.id),
          type: 'message',
          role: 'assistant',
          model: this.model ?? chunk.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: asIntArray(chunk.prompt_token_ids)?.length ?? 0,
            output_tokens: 0,
          },
        },
      });
    }
    const usage = asRecord(chunk.usage);
    if (typeof usage?.completion_tokens === 'number') this.outputTokens = usage.completion_tokens;
    const choice = asRecord(asArray(chunk.choices)[0]);
    if (!choice) return out;
    const delta = asRecord(choice.delta) ?? {};
    const text = asString(delta.content);
    if (text) {
      if (this.openBlock !== 'text') {
        out += this.closeBlock();
        this.blockIndex++;
        this.openBlock = 'text';
        out += event('content_block_start', {
          index: this.blockIndex,
          content_block: { type: 'text', text: '' },
        });
      }
      out += event('content_block_delta', {
        index: this.blockIndex,
        delta: { type: 'text_delta', text },
      });
    }
    for (const callValue of asArray(delta.tool_calls)) {
      const call = asRecord(callValue);
      if (!call) continue;
      const callIndex = typeof call.index === 'number' ? call.index : 0;
      const fn = asRecord(call.function) ?? {};
      if (!this.toolIndex.has(callIndex)) {
        out += this.closeBlock();
        this.blockIndex++;
        this.toolIndex.set(callIndex, this.blockIndex);
        this.openBlock = 'tool';
        out += event('content_block_start', {
          index: this.blockIndex,
          content_block: { type: 'tool_use', id: call.id, name: fn.name, input: {} },
        });
      }
      const args = asString(fn.arguments);
      if (args) {
        out += event('content_block_delta', {
          index: this.toolIndex.get(callIndex),
          delta: { type: 'input_json_delta', partial_json: args },
        });
      }
    }
    const finish = asString(choice.finish_reason);
    if (finish) {
      this.finish = finish;
      this.stop = choice.stop_reason;
    }
    return out;
  }

  /** The closing events (once). */
  end(): string {
    if (this.finished || !this.started) return '';
    this.finished = true;
    return (
      this.closeBlock() +
      event('message_delta', {
        delta: {
          stop_reason: stopReason(this.finish, this.stop),
          stop_sequence: typeof this.stop === 'string' ? this.stop : null,
        },
        usage: { output_tokens: this.outputTokens },
      }) +
      event('message_stop', {})
    );
  }

  private closeBlock(): string {
    if (this.openBlock === undefined) return '';
    this.openBlock = undefined;
    return event('content_block_stop', { index: this.blockIndex });
  }
}
