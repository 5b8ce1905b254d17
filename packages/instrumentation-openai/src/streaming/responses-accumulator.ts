import { asArray, asIntArray, asNumber, asRecord, asString, type JsonRecord } from '@arclight/core';
import type { StreamAccumulator } from '../endpoint.js';
import { appended } from '../json.js';

interface ItemState {
  item: JsonRecord;
  /** Set once `response.output_item.done` delivered the finished item. */
  done: boolean;
  text: string;
  arguments: string;
  logprobs: unknown[];
  tokenIds?: number[];
}

const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Folds Responses-API stream events. The final `response.completed|incomplete|failed` event carries the
 * whole response (including the fixture/vLLM token ids), which is then used as is; until it arrives, the
 * text / argument / `token_ids` deltas are collected so an abandoned stream still yields what arrived.
 */
export class ResponsesStreamAccumulator implements StreamAccumulator {
  private snapshot: JsonRecord | undefined;
  private final: JsonRecord | undefined;
  private readonly items = new Map<number, ItemState>();

  add(eventValue: unknown): void {
    const event = asRecord(eventValue);
    if (!event) return;
    const type = asString(event.type) ?? '';
    const response = asRecord(event.response);
    if (response) {
      if (FINAL_EVENTS.has(type)) this.final = response;
      else this.snapshot = response;
      return;
    }
    const outputIndex = asNumber(event.output_index);
    if (outputIndex === undefined) return;
    const item = asRecord(event.item);
    if (type === 'response.output_item.added' && item) {
      this.items.set(outputIndex, { item, done: false, text: '', arguments: '', logprobs: [] });
      return;
    }
    const state = this.items.get(outputIndex);
    if (!state) return;
    if (type === 'response.output_item.done' && item) {
      state.item = item;
      state.done = true;
    } else if (type === 'response.output_text.delta') {
      state.text += asString(event.delta) ?? '';
      state.logprobs.push(...asArray(event.logprobs));
      this.addIds(state, event.token_ids);
    } else if (type === 'response.function_call_arguments.delta') {
      state.arguments += asString(event.delta) ?? '';
      this.addIds(state, event.token_ids);
    }
  }

  private addIds(state: ItemState, value: unknown): void {
    const ids = asIntArray(value);
    if (ids) state.tokenIds = appended(state.tokenIds, ids);
  }

  result(): JsonRecord {
    if (this.final) return this.final;
    const output = [...this.items.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, state]) => (state.done ? state.item : partialItem(state)));
    return { ...this.snapshot, status: 'in_progress', output };
  }
}

function partialItem(state: ItemState): JsonRecord {
  const item: JsonRecord = { ...state.item };
  if (item.type === 'message') {
    item.content = [{ type: 'output_text', text: state.text, logprobs: state.logprobs }];
  } else if (item.type === 'function_call') {
    item.arguments = state.arguments;
  }
  if (state.tokenIds) item.token_ids = state.tokenIds;
  return item;
}
