import { type Tracer, trace } from '@opentelemetry/api';
import { type OpenAIInstrumentationOptions, resolveOptions } from './options.js';
import { isOpenAIInstrumented, patchOpenAI } from './patch.js';
import { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from './version.js';

/** Restores the original `create` methods. Calling it again does nothing. */
export type Uninstrument = () => void;

/**
 * Instruments one copy of the `openai` SDK: pass the `OpenAI` class or the module
 * (`import OpenAI from 'openai'` / `import * as openai from 'openai'` / `require('openai')`). Every
 * `chat.completions.create`, `responses.create` and `completions.create` of every client of that copy then
 * writes a span. Returns the function that uninstruments; instrumenting an instrumented copy is a no-op
 * whose returned function does nothing.
 *
 * ```ts
 * import OpenAI from 'openai';
 * const uninstrument = instrumentOpenAI(OpenAI, { tracerProvider: tracer.tracerProvider });
 * ```
 */
export function instrumentOpenAI(
  openai: unknown,
  options: OpenAIInstrumentationOptions = {},
): Uninstrument {
  const resolved = resolveOptions(options);
  const provider = options.tracerProvider;
  let tracer: Tracer | undefined;
  // Looked up on first use (and retried if the provider throws): instrumenting never fails on it.
  const getTracer = () =>
    (tracer ??= provider
      ? provider.getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION)
      : trace.getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION));
  const restore = patchOpenAI(openai, { tracer: getTracer, options: () => resolved });
  let done = restore === undefined;
  return () => {
    if (done) return;
    done = true;
    restore?.();
  };
}

export { isOpenAIInstrumented };
