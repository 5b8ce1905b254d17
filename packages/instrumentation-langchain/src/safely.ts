import { createSafely } from '@arclight/instrumentation';
import { INSTRUMENTATION_NAME } from './version.js';

/** Runs tracing code that must never disturb the application (see `createSafely`). */
export const safely = createSafely(INSTRUMENTATION_NAME);
