import { packageIdentity } from '@arclight/instrumentation';

/** Instrumentation scope name and version reported on every span (from this package's `package.json`). */
export const { name: INSTRUMENTATION_NAME, version: INSTRUMENTATION_VERSION } = packageIdentity(
  import.meta.url,
);
