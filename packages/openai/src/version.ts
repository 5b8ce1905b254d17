/** Instrumentation scope name and version reported on every span. */
export const INSTRUMENTATION_NAME = '@arclight/openai';
export const INSTRUMENTATION_VERSION = '0.1.0';
