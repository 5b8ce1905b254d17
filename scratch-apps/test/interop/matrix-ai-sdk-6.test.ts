import { aiSdkSuite } from './ai-sdk-app.js';

// `ai` 6 with the providers of its generation (@ai-sdk/openai 3, openai-compatible 2), recorded through
// `experimental_telemetry` (the SDK's OpenTelemetry spans, written by Arclight's tracer).
aiSdkSuite(6, {
  ai: '^6.0.0',
  openai: '^3.0.0',
  openaiCompatible: '^2.0.0',
  telemetryKey: 'experimental_telemetry',
});
