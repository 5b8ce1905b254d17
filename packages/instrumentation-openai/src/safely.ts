import { createSafely } from '@arclight/instrumentation';
import { INSTRUMENTATION_NAME } from './version.js';

/** Runs instrumentation code that must never disturb the application (see `createSafely`). */
export const safely = createSafely(INSTRUMENTATION_NAME);
