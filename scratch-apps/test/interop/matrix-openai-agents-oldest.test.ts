import { agentsHandoffSuite } from './agents-handoff-app.js';

// The oldest `@openai/agents` release the integration supports (the lower bound of its peer range): 0.0.2, whose
// own `openai` is 5 (the app hands the SDK its `openai` 7 client). 0.0.1 does not run the handoff example.
agentsHandoffSuite('0.0.2', '^3.25.40'); // its peer: zod 3
