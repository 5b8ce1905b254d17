#!/usr/bin/env node
// arclight-fixture-llm [--host 127.0.0.1] [--port 8765] [--latency-ms N] [--chunk-delay-ms N]
//                      [--recordings PATH | --no-recordings] [--tokenizer chunks|bytes]
// Starts the fixture LLM server, prints its base URL (http://host:port/v1) on stdout, runs until signalled.
import { parseArgs } from 'node:util';
import { startFixtureLlm } from './server.js';
import { type TokenizerVocabulary, tokenizerVocabulary } from './tokenizer.js';

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
    'latency-ms': { type: 'string' },
    'chunk-delay-ms': { type: 'string' },
    recordings: { type: 'string' },
    'no-recordings': { type: 'boolean', default: false },
    tokenizer: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(
    'Usage: arclight-fixture-llm [--host H] [--port N] [--latency-ms N] [--chunk-delay-ms N] ' +
      '[--recordings PATH | --no-recordings] [--tokenizer chunks|bytes]',
  );
  process.exit(0);
}

function int(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name}: expected a non-negative integer, got ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return n;
}

function vocabulary(value: string | undefined): TokenizerVocabulary | undefined {
  if (value === undefined) return undefined;
  try {
    return tokenizerVocabulary(value, '--tokenizer');
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}

const llm = await startFixtureLlm({
  tokenizer: vocabulary(values.tokenizer),
  host: values.host,
  port: int('port', values.port),
  latencyMs: int('latency-ms', values['latency-ms']),
  chunkDelayMs: int('chunk-delay-ms', values['chunk-delay-ms']),
  recordings: values['no-recordings'] ? false : values.recordings,
});
console.log(llm.baseUrl);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    llm.close().then(() => process.exit(0));
  });
}
