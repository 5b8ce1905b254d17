/**
 * A process-wide record of which Arclight instrumentations are active, so that integrations can avoid
 * double counting: e.g. a LangChain chat-model span does not present itself as an LLM call when
 * `@arclight/openai` already records the underlying `openai.chat.completion` span (with token ids).
 * Kept on `globalThis` so that duplicate copies of this package in one process agree.
 */
const REGISTRY = Symbol.for('arclight.instrumentation.registry');

type Registry = Map<string, number>;

function registry(): Registry {
  const holder = globalThis as typeof globalThis & { [REGISTRY]?: Registry };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/** Marks an instrumentation active (`true`) or inactive (`false`); calls nest like a counter. */
export function markInstrumented(name: string, active: boolean): void {
  const counts = registry();
  const next = (counts.get(name) ?? 0) + (active ? 1 : -1);
  if (next > 0) counts.set(name, next);
  else counts.delete(name);
}

/** Whether the named instrumentation (e.g. `'openai'`) is active in this process. */
export function isInstrumented(name: string): boolean {
  return (registry().get(name) ?? 0) > 0;
}
