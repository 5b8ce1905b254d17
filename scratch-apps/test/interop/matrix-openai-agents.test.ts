import { agentsHandoffSuite } from './agents-handoff-app.js';

// The Agents SDK's handoff example on its latest release (one file per version, so vitest runs them side by side).
agentsHandoffSuite('latest');
