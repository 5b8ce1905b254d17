import { openaiToolLoopSuite } from './openai-tool-loop-app.js';

// Raw `openai` 5 (the oldest supported major) in the app, 6 in a dependency.
openaiToolLoopSuite(5, 6);
