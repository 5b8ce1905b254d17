import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export { claimLlmCall, expectLlmCall, type LlmCallClaim } from './claims.js';
export { ERROR_TYPE, errorMessage, errorType, recordError } from './errors.js';
export { isThenable, safeJson } from './json.js';
export { createSafely, describeError, type Safely } from './safely.js';
export { writeToolCallSpans } from './tool-call-spans.js';
export { majorVersion, packageIdentity, resolvedPackageVersion } from './version.js';
export { hasTokenIds, warnNoTokenIds, warnUninstrumentedClient } from './warnings.js';
