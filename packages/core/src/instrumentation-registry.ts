/**
 * A process-wide count of the copies each Arclight client instrumentation has patched (e.g. how many copies of
 * `openai` `@arclight/instrumentation-openai` instruments). It is NOT how integrations decide which span is an
 * LLM call — that is decided per call (`expectLlmCall` / `claimLlmCall` of `@arclight/instrumentation`), since
 * an app and its frameworks often load different copies of a client. It only lets a framework integration tell
 * the user that its copy is the uninstrumented one (`ARCLIGHT_UNINSTRUMENTED_CLIENT`). Kept on `globalThis`
 * so that duplicate copies of this package in one process agree.
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

/** Whether the named instrumentation (e.g. `'openai'`) has patched at least one copy in this process. */
export function isInstrumented(name: string): boolean {
  return (registry().get(name) ?? 0) > 0;
}
