import { setTracingDisabled } from '@openai/agents';

// `@openai/agents` turns tracing off when NODE_ENV === 'test' (vitest sets it); `npm start` does not.
setTracingDisabled(false);
