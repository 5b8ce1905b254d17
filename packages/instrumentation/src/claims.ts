import { type Context, trace } from '@opentelemetry/api';

/**
 * Per-call decision of which span is the LLM-call span, when a framework (LangChain, the Agents SDK, the AI
 * SDK) calls the model through an OpenAI client that may or may not be instrumented.
 *
 * The framework integration opens a claim when its model span starts ({@link expectLlmCall}), keyed by the
 * OpenTelemetry span active where the client will run. An instrumented client that starts an LLM-call span in
 * that same context takes the claim ({@link claimLlmCall}). When the framework span ends, it reads the claim:
 * taken — the client's span is this call's LLM-call span, and the framework span stays a plain model span;
 * not taken — the framework's client copy is not instrumented (or the call went elsewhere), and the framework
 * span becomes the LLM-call span. Exactly one LLM-call span per call, whatever copies of `openai` the app and
 * its frameworks load. The book lives on `globalThis`, so every copy of this package shares it.
 */

const BOOK = Symbol.for('arclight.instrumentation.llm-call-claims');
/** Open claims per context key at most; beyond it the oldest are dropped (a framework that never ends). */
const MAX_OPEN_PER_KEY = 1000;

interface Slot {
  readonly model: string | undefined;
  open: boolean;
  claimedBy: string | undefined;
}

type Book = Map<string, Slot[]>;

function book(): Book {
  const holder = globalThis as typeof globalThis & { [BOOK]?: Book };
  holder[BOOK] ??= new Map();
  return holder[BOOK];
}

/** The key of a context: its active span (trace and span id), or `''` outside any span. */
function keyOf(ctx: Context): string {
  const spanContext = trace.getSpanContext(ctx);
  return spanContext ? `${spanContext.traceId}/${spanContext.spanId}` : '';
}

/** A framework's expectation of one LLM call, opened when its model span starts. */
export interface LlmCallClaim {
  /** Whether an instrumented client recorded this call's LLM-call span (so far). */
  readonly claimed: boolean;
  /** Which instrumentation took the claim (e.g. `openai`), if one did. */
  readonly claimedBy: string | undefined;
  /** Closes the claim (when the framework span ends) and returns whether it was taken. Idempotent. */
  close(): boolean;
}

/**
 * Opens a claim for the model call a framework is about to make in `ctx` (the context its client call will run
 * in: the active context where the framework's model span starts, or that span's own context when the
 * framework makes it active around the call). `model` helps pick the right claim when several calls are in
 * flight in one context.
 */
export function expectLlmCall(ctx: Context, model?: string): LlmCallClaim {
  const key = keyOf(ctx);
  const slot: Slot = { model, open: true, claimedBy: undefined };
  const slots = book().get(key) ?? [];
  slots.push(slot);
  if (slots.length > MAX_OPEN_PER_KEY) slots.splice(0, slots.length - MAX_OPEN_PER_KEY);
  book().set(key, slots);
  return {
    get claimed() {
      return slot.claimedBy !== undefined;
    },
    get claimedBy() {
      return slot.claimedBy;
    },
    close() {
      if (slot.open) {
        slot.open = false;
        const list = book().get(key);
        const at = list?.indexOf(slot) ?? -1;
        if (list && at >= 0) list.splice(at, 1);
        if (list?.length === 0) book().delete(key);
      }
      return slot.claimedBy !== undefined;
    },
  };
}

/**
 * Called by an instrumented client when it starts an LLM-call span in `ctx`: takes the oldest open, untaken
 * claim of that context (preferring one for the same `model`). Returns whether a framework expected this call
 * (then that framework does not write an LLM-call span of its own).
 */
export function claimLlmCall(ctx: Context, by: string, model?: string): boolean {
  const slots = book().get(keyOf(ctx));
  if (!slots) return false;
  const free = slots.filter((slot) => slot.open && slot.claimedBy === undefined);
  const slot = (model !== undefined && free.find((s) => s.model === model)) || free[0];
  if (!slot) return false;
  slot.claimedBy = by;
  return true;
}
