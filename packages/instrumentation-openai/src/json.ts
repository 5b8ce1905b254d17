/**
 * Helpers for the SDK's request and response objects, besides the loose readers of `@arclight/core`
 * (`asRecord`, `asString`, …): the instrumentation never imports the `openai` types, since it supports two
 * majors whose typings differ, and servers (vLLM) add fields the types do not know.
 */

export { isThenable } from '@arclight/instrumentation';

/** Appends `items` to `list` in place (or starts a new list): accumulates stream deltas. */
export function appended<T>(list: T[] | undefined, items: readonly T[]): T[] {
  if (!list) return items.slice();
  list.push(...items);
  return list;
}
