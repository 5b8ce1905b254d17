import { TokenAttributes, WarningCodes, warnOnce } from '@arclight/core';

/** Whether attributes of an LLM-call span carry both prompt and response token ids. */
export function hasTokenIds(attributes: Record<string, unknown>): boolean {
  const filled = (value: unknown) => Array.isArray(value) && value.length > 0;
  return (
    filled(attributes[TokenAttributes.PROMPT_TOKEN_IDS]) &&
    filled(attributes[TokenAttributes.RESPONSE_TOKEN_IDS])
  );
}

/**
 * Warns (once per process and `source`) that `source` recorded an LLM call without prompt/response token ids,
 * naming `fix` — the option that requests them. Rows exported from such calls are skipped as `no_token_ids`.
 */
export function warnNoTokenIds(source: string, fix: string): void {
  warnOnce(
    WarningCodes.NO_TOKEN_IDS,
    `${source} recorded an LLM call without prompt/response token ids, so it cannot become a training ` +
      `triplet (arclight export skips it as no_token_ids). Fix: ${fix}. The server must return them ` +
      '(vLLM >= 0.10.2 does for return_token_ids: true).',
    source,
  );
}

/**
 * Warns (once per process and `framework`) that `framework` called the model through a copy of its client
 * that no Arclight instrumentation patched, while another copy is instrumented: the framework's own span
 * records the call instead (with token ids only if the framework integration can read them).
 */
export function warnUninstrumentedClient(framework: string, client: string): void {
  warnOnce(
    WarningCodes.UNINSTRUMENTED_CLIENT,
    `${framework} called the model through a copy of \`${client}\` that is not instrumented, although ` +
      `another copy is (the app and ${framework} load different copies of \`${client}\`). ${framework}'s own ` +
      'span records the call instead. Fix: instrument every copy — enable `new OpenAIInstrumentation()` of ' +
      '@arclight/instrumentation-openai before the frameworks are loaded (ESM apps: ' +
      '`node --import @arclight/instrumentation-openai/register app.js`), or pass that copy to ' +
      '`instrumentOpenAI(module)`.',
    framework,
  );
}
