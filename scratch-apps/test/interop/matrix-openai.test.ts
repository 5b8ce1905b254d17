import { openaiToolLoopSuite } from './openai-tool-loop-app.js';

// Raw `openai`, latest major in the app, the previous one in a dependency.
openaiToolLoopSuite(7, 6);
