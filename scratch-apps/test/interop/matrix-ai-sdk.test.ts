import { aiSdkSuite } from './ai-sdk-app.js';

// `ai` 7 with its current providers, recorded through `telemetry` (the SDK's Telemetry integrations).
aiSdkSuite(7, {
  ai: '^7.0.0',
  openai: 'latest',
  openaiCompatible: 'latest',
  telemetryKey: 'telemetry',
});
