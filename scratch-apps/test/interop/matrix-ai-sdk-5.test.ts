import { aiSdkSuite } from './ai-sdk-app.js';

// `ai` 5 with the providers of its generation (@ai-sdk/openai 2, openai-compatible 1), recorded through
// `experimental_telemetry` (the SDK's OpenTelemetry spans, written by Arclight's tracer).
aiSdkSuite(5, {
  ai: '^5.0.0',
  openai: '^2.0.0',
  openaiCompatible: '^1.0.0',
  telemetryKey: 'experimental_telemetry',
});
