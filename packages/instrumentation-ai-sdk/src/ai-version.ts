import { majorVersion, resolvedPackageVersion } from '@arclight/instrumentation';

/** The `ai` majors this package records: 7 through its `Telemetry` integration, 5 and 6 through their tracer. */
export const SUPPORTED_AI_RANGE = '>=5 <8';

/** How a major of `ai` is recorded. */
export type AiTelemetryPath =
  /** `ai` ≥ 7: a `Telemetry` integration (`telemetry.integrations`). */
  | 'integration'
  /** `ai` 5 and 6: `experimental_telemetry: { isEnabled, tracer }`, the SDK's OpenTelemetry spans converted. */
  | 'tracer';

/** Thrown by `arclightTelemetry` when the installed `ai` is older than 5. */
export class UnsupportedAiVersionError extends Error {
  readonly code = 'ERR_ARCLIGHT_UNSUPPORTED_AI';
  constructor(readonly version: string) {
    super(
      `@arclight/instrumentation-ai-sdk supports ai ${SUPPORTED_AI_RANGE} (5 and 6 through ` +
        '`experimental_telemetry`, 7 through `telemetry`); the installed ai is ' +
        `${version}, whose calls it cannot record. Fix: upgrade the AI SDK (npm install ai@^7, or ai@^5 / ` +
        'ai@^6 with the matching @ai-sdk/* providers).',
    );
    this.name = 'UnsupportedAiVersionError';
  }
}

/** Thrown by `new ArclightTelemetry()` (an `ai` 7 integration) when the installed `ai` is 5 or 6. */
export class AiTelemetryApiError extends Error {
  readonly code = 'ERR_ARCLIGHT_AI_TELEMETRY_API';
  constructor(readonly version: string) {
    super(
      `ArclightTelemetry is a Telemetry integration of ai 7, but the installed ai is ${version}, which does ` +
        'not call it. Fix: pass `experimental_telemetry: arclightTelemetry(tracer, { agentName })` to each ' +
        "call (on ai 5 and 6 it records the SDK's OpenTelemetry spans), or upgrade to ai@^7.",
    );
    this.name = 'AiTelemetryApiError';
  }
}

/**
 * The version of the `ai` package this package resolves — the application's copy when npm hoists the peer
 * dependency (every ordinary install). `undefined` when it cannot be read.
 */
export function installedAiVersion(): string | undefined {
  return resolvedPackageVersion(import.meta.url, 'ai');
}

/**
 * Which recording path a version of `ai` takes; throws {@link UnsupportedAiVersionError} below 5. An
 * unreadable version is taken as the current major (7). Majors above 7 use the integration (the newest API).
 */
export function telemetryPathFor(version: string | undefined): AiTelemetryPath {
  const major = majorVersion(version);
  if (major === undefined) return 'integration';
  if (major < 5) throw new UnsupportedAiVersionError(version as string);
  return major < 7 ? 'tracer' : 'integration';
}
