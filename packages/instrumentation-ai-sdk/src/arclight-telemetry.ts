import type { TelemetryOptions } from 'ai';
import type { ArclightTelemetryOptions, TracerSource } from './options.js';
import { ArclightTelemetry } from './telemetry.js';

export interface ArclightTelemetrySettings extends ArclightTelemetryOptions {
  /** The telemetry `functionId`; also the default `agent.name`. */
  functionId?: string;
  /** `recordInputs: false` drops prompts, tool definitions and tool arguments (token ids are kept). */
  recordInputs?: boolean;
  /** `recordOutputs: false` drops completions and tool results (token ids are kept). */
  recordOutputs?: boolean;
}

/**
 * The `telemetry` option of an AI SDK call (`generateText({ …, telemetry: arclightTelemetry(tracer) })`):
 * an {@link ArclightTelemetry} integration writing through `tracer` (a `LightningTracer` or any
 * `TracerProvider`), plus `functionId` / recording settings.
 */
export function arclightTelemetry(
  tracer: TracerSource,
  settings: ArclightTelemetrySettings = {},
): TelemetryOptions {
  const { functionId, recordInputs, recordOutputs, ...options } = settings;
  const telemetry: TelemetryOptions = { integrations: [new ArclightTelemetry(tracer, options)] };
  if (functionId !== undefined) telemetry.functionId = functionId;
  if (recordInputs !== undefined) telemetry.recordInputs = recordInputs;
  if (recordOutputs !== undefined) telemetry.recordOutputs = recordOutputs;
  return telemetry;
}
