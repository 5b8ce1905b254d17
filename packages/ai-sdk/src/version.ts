/** Instrumentation scope of the spans this package writes. */
export const INSTRUMENTATION_NAME = '@arclight/ai-sdk';
export const INSTRUMENTATION_VERSION = '0.1.0';
