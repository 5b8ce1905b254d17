import {
  getContextVariable,
  registerConfigureHook,
  setContextVariable,
} from '@langchain/core/context';
import { ArclightCallbackHandler } from './handler.js';
import type { ArclightCallbackHandlerOptions } from './options.js';

/** The LangChain context variable holding the globally registered handler. */
export const HANDLER_CONTEXT_VARIABLE = 'arclight_langchain_handler';
const HOOK_REGISTERED = 'arclight_langchain_hook_registered';

/** Stops global tracing (for runs started afterwards in the same async context). */
export type Uninstrument = () => void;

/**
 * Traces every LangChain / LangGraph run from now on, without passing callbacks: registers a handler with
 * LangChain's configure hooks (`registerConfigureHook` + a context variable, `@langchain/core/context`), so
 * every callback manager LangChain builds includes it. A run that also gets an `ArclightCallbackHandler`
 * explicitly is traced once (LangChain keeps one handler per name).
 *
 * LangChain stores hooks and context variables in its AsyncLocalStorage: call this at start-up, before and
 * outside the code that runs your chains (e.g. at the top of `main`), not inside a runnable; it applies to the
 * current async context and everything started from it.
 */
export function instrumentLangChain(options: ArclightCallbackHandlerOptions = {}): {
  handler: ArclightCallbackHandler;
  uninstrument: Uninstrument;
} {
  const handler = new ArclightCallbackHandler(options);
  if (getContextVariable(HOOK_REGISTERED) !== true) {
    registerConfigureHook({ contextVar: HANDLER_CONTEXT_VARIABLE, inheritable: true });
    setContextVariable(HOOK_REGISTERED, true);
  }
  setContextVariable(HANDLER_CONTEXT_VARIABLE, handler);
  return {
    handler,
    uninstrument: () => {
      if (getContextVariable(HANDLER_CONTEXT_VARIABLE) === handler) {
        setContextVariable(HANDLER_CONTEXT_VARIABLE, undefined);
      }
    },
  };
}
