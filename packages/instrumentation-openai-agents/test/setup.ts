import { setTracingDisabled } from '@openai/agents';

// `@openai/agents` turns tracing off by default when NODE_ENV === 'test', which vitest sets; without this
// no processor would ever be called.
setTracingDisabled(false);
