import {
  type Adapter,
  isPlainRecord,
  pythonTruthy,
  type Span,
  ValidationError,
} from '@arclight/core';
import type { OpenAIMessages } from './chat-types.js';
import { type RawSpanInfo, toOpenAIMessages } from './convert.js';
import { groupGenaiDict } from './group-genai.js';

/**
 * Upstream `TraceToMessages` (`adapter/messages.py`, used by APO): one OpenAI chat conversation per span
 * that has `gen_ai.prompt.*`, `gen_ai.completion.*`, `gen_ai.request.*` or `gen_ai.response.*` attributes,
 * in span order:
 * - the prompt messages (`gen_ai.prompt.N.role|content|tool_call_id`; an assistant message with
 *   `tool_calls.M.id|name|arguments` becomes `{role: 'assistant', content: null, tool_calls}`);
 * - then each assistant completion (`gen_ai.completion.N`), carrying as `tool_calls` the tool calls of the
 *   span's **direct child spans** with `tool.*` attributes (`tool.call.id`, `tool.call.type`, `tool.name`,
 *   `tool.parameters`);
 * - `tools`: the function definitions `gen_ai.request.functions.N.name|description|parameters` (parameters
 *   JSON-decoded when a string), or `null`.
 * Every span is read, LLM call or not; like upstream, nested duplicate LLM spans give duplicate entries.
 * Data upstream cannot convert (a message without role, a tool message without `tool_call_id`, a tool
 * definition without parameters, …) throws `ValidationError`.
 */
export class TraceToMessages implements Adapter<readonly Span[], OpenAIMessages[]> {
  adapt(spans: readonly Span[]): OpenAIMessages[] {
    const childrenOf = new Map<string, Span[]>();
    for (const span of spans) {
      if (span.parent_id === null || span.parent_id === undefined) continue;
      const list = childrenOf.get(span.parent_id);
      if (list) list.push(span);
      else childrenOf.set(span.parent_id, [span]);
    }
    const out: OpenAIMessages[] = [];
    for (const span of spans) {
      const info = this.readSpan(span, childrenOf.get(span.span_id) ?? []);
      if (info) out.push(toOpenAIMessages(info, span.span_id));
    }
    return out;
  }

  /** Upstream `get_tool_calls`: the non-empty `tool.*` groups of the span's direct children. */
  getToolCalls(children: readonly Span[]): Record<string, unknown>[] {
    const calls: Record<string, unknown>[] = [];
    for (const child of children) {
      const call = groupGenaiDict(child.attributes ?? {}, 'tool');
      if (!isPlainRecord(call)) {
        throw new ValidationError(
          `span '${child.span_id}': tool.* attributes form a list, not an object`,
        );
      }
      if (Object.keys(call).length > 0) calls.push(call);
    }
    return calls;
  }

  private readSpan(span: Span, children: readonly Span[]): RawSpanInfo | null {
    const attributes = span.attributes ?? {};
    const prompt = orEmpty(groupGenaiDict(attributes, 'gen_ai.prompt'), []);
    const completion = orEmpty(groupGenaiDict(attributes, 'gen_ai.completion'), []);
    const request = orEmpty(groupGenaiDict(attributes, 'gen_ai.request'), {});
    const response = orEmpty(groupGenaiDict(attributes, 'gen_ai.response'), {});
    const where = `span '${span.span_id}'`;
    if (!Array.isArray(prompt))
      throw new ValidationError(`${where}: gen_ai.prompt.* is not a list`);
    if (!Array.isArray(completion)) {
      throw new ValidationError(`${where}: gen_ai.completion.* is not a list`);
    }
    if (!isPlainRecord(request))
      throw new ValidationError(`${where}: gen_ai.request.* is not an object`);
    if (!isPlainRecord(response)) {
      throw new ValidationError(`${where}: gen_ai.response.* is not an object`);
    }
    if (!(prompt.length || completion.length || pythonTruthy(request) || pythonTruthy(response))) {
      return null;
    }
    return { prompt, completion, request, response, tools: this.getToolCalls(children) };
  }
}

/** Python's `value or fallback` for grouped data (empty object/list → fallback). */
const orEmpty = <T>(
  value: Record<string, unknown> | unknown[],
  fallback: T,
): Record<string, unknown> | unknown[] | T => (pythonTruthy(value) ? value : fallback);
