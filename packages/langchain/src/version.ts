export const INSTRUMENTATION_NAME = '@arclight/langchain';
export const INSTRUMENTATION_VERSION = '0.1.0';
