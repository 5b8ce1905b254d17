import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { createScratchApp, type ScratchApp } from '@arclight/test-fixtures/scratch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExport } from './matrix.js';
import { installDependencies, readmeBlocks, shellLines } from './readme.js';

// The README's two lines added to an app that already traces itself with the OpenTelemetry SDK 2.x, which
// pins `@opentelemetry/api` below 1.10 (as do `ai` 5 and 6) while Arclight's OpenTelemetry 3.x packages need
// 1.10: the app's own tracer provider and context manager are registered first, through api 1.9. Arclight has
// to record the run with token ids and leave the app's own spans alone. (Before @arclight/instrumentation-openai
// brought its own api 1.10, this app died at import: `@opentelemetry/api` has no export named `logs`.)
const blocks = readmeBlocks('Two lines in an existing agent');
const [install] = shellLines(blocks, 'npm install ');
const readmeProgram = blocks.find((b) => b.lang === 'ts')?.code ?? '';

const APP_TRACING = `
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
const appExporter = new InMemorySpanExporter();
new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(appExporter)] }).register();
`;

// The README program, with the app's tracing set up first and its own span around each run.
const program = `${APP_TRACING}${readmeProgram
  .replace(
    /await recorder\.record\(task, (async \(\) => [^;]+)\);/,
    "await trace.getTracer('app').startActiveSpan('app.request', async (span) => {\n    await recorder.record(task, $1);\n    span.end();\n  });",
  )
  .replace(
    'await recorder.close();',
    'await recorder.close();\nconsole.log(JSON.stringify({ appSpans: appExporter.getFinishedSpans().map((s) => s.name) }));',
  )}`;

let app: ScratchApp;
let llm: FixtureLlm;

beforeAll(async () => {
  if (!install || !program.includes("startActiveSpan('app.request'")) {
    throw new Error(
      'README two-line section: expected an `npm install` line and its recorder.record loop',
    );
  }
  const dependencies = installDependencies(install);
  llm = await startFixtureLlm();
  app = await createScratchApp({
    name: 'existing-otel-app',
    dependencies: {
      ...dependencies,
      '@opentelemetry/api': '1.9.0',
      '@opentelemetry/sdk-trace-node': '^2.12.1',
    },
    files: { 'main.ts': program },
  });
});

afterAll(async () => {
  await app?.remove();
  await llm?.close();
});

describe('an app that already traces with the OpenTelemetry SDK 2.x (@opentelemetry/api 1.9)', () => {
  it('installs without peer conflicts', () => {
    const output = `${app.installOutput.stdout}\n${app.installOutput.stderr}`;
    expect(output).not.toMatch(/ERESOLVE|peer dep/i);
  });

  it('records the run with token ids and keeps the app own spans', async () => {
    const env = { OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: 'unused' };
    const run = await app.node('main.ts', [], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('ArclightWarning');
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1) as string)).toEqual({
      appSpans: ['app.request'],
    });

    // Triplets with token ids and the reward, and verl Parquet, from the app's own `npx arclight export`.
    await checkExport(app, { rows: 1, rollouts: 1, agents: ['*'] });
  });
});
