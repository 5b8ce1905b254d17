/**
 * `node --import @arclight/instrumentation-openai/register app.js`: instruments every copy of `openai` the
 * process loads, by `import` (through import-in-the-middle's loader hook, registered here for `openai` only)
 * and by `require`, before the app's first line runs. Token ids are requested from every server that is not
 * OpenAI's own API (`requestTokenIds: 'auto'`). Spans go to the global tracer provider: create the
 * `LightningTracer` with `registerGlobal: true` (or register your own OpenTelemetry SDK).
 */
import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13
import { register } from 'node:module';
import { OpenAIInstrumentation } from './instrumentation.js';

register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, {
  data: { include: ['openai'] },
});

/** The instrumentation this entry point enabled (e.g. to `setTracerProvider` or `disable` it). */
export const instrumentation = new OpenAIInstrumentation({ requestTokenIds: 'auto' });
