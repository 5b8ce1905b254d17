/** Name and version of the instrumentation scope of the spans this package writes. */
export const INSTRUMENTATION_NAME = '@arclight/openai-agents';
export const INSTRUMENTATION_VERSION = '0.1.0';
