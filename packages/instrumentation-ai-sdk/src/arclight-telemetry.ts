import type { TelemetryOptions } from 'ai';
import { installedAiVersion, telemetryPathFor } from './ai-version.js';
import { type ArclightTelemetryOptions, resolveOptions, type TracerSource } from './options.js';
import { ArclightTelemetry } from './telemetry.js';
import { ArclightTracer } from './tracer/arclight-tracer.js';

export interface ArclightTelemetrySettings extends ArclightTelemetryOptions {
  /** The telemetry `functionId`; also the default `agent.name`. */
  functionId?: string;
  /** `recordInputs: false` drops prompts, tool definitions and tool arguments (token ids are kept). */
  recordInputs?: boolean;
  /** `recordOutputs: false` drops completions and tool results (token ids are kept). */
  recordOutputs?: boolean;
}

/**
 * The telemetry option of an AI SDK call, for the installed `ai`:
 * `generateText({ …, experimental_telemetry: arclightTelemetry(tracer) })` (`ai` 5, 6, 7; on 7 also as
 * `telemetry`). On `ai` 7 it holds an {@link ArclightTelemetry} integration; on `ai` 5 and 6 it enables the
 * SDK's OpenTelemetry spans with an {@link ArclightTracer}, which writes them in Arclight's layout. Either
 * way spans go to `tracer` (a `LightningTracer` or any `TracerProvider`). Throws
 * `ERR_ARCLIGHT_UNSUPPORTED_AI` for `ai` < 5.
 */
export function arclightTelemetry(
  tracer: TracerSource,
  settings: ArclightTelemetrySettings = {},
): TelemetryOptions {
  const { functionId, recordInputs, recordOutputs, ...options } = settings;
  const version = options.aiVersion ?? installedAiVersion();
  if (telemetryPathFor(version) === 'tracer') {
    const recording = {
      recordInputs: recordInputs !== false,
      recordOutputs: recordOutputs !== false,
    };
    const legacy: Record<string, unknown> = {
      isEnabled: true,
      tracer: new ArclightTracer(tracer, resolveOptions(options), recording),
    };
    if (functionId !== undefined) legacy.functionId = functionId;
    if (recordInputs !== undefined) legacy.recordInputs = recordInputs;
    if (recordOutputs !== undefined) legacy.recordOutputs = recordOutputs;
    return legacy as TelemetryOptions;
  }
  const telemetry: TelemetryOptions = {
    integrations: [new ArclightTelemetry(tracer, { ...options, aiVersion: version })],
  };
  if (functionId !== undefined) telemetry.functionId = functionId;
  if (recordInputs !== undefined) telemetry.recordInputs = recordInputs;
  if (recordOutputs !== undefined) telemetry.recordOutputs = recordOutputs;
  return telemetry;
}
