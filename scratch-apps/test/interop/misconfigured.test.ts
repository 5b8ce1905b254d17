import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { createScratchApp, type ScratchApp, WORKSPACE } from '@arclight/test-fixtures/scratch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Mistakes a new user makes with the two-line integration, in a fresh app: each is told, when it happens or
// at export, what went wrong and the fix — never a silent empty export.
const SETUP = `
import OpenAI from 'openai';
import { instrumentOpenAI } from '@arclight/instrumentation-openai';
import { LightningTracer } from '@arclight/otel';
import { RolloutRecorder } from '@arclight/runner';
import { SqliteLightningStore } from '@arclight/store';
const client = new OpenAI();
const ask = (content) =>
  client.chat.completions.create({ model: 'qwen', messages: [{ role: 'user', content }] });
`;

const FILES = {
  // The agent runs, but not inside recorder.record(): its LLM call belongs to no rollout.
  'outside-rollout.mjs': `${SETUP}
const recorder = new RolloutRecorder({ store: new SqliteLightningStore({ path: 'outside.sqlite' }) });
instrumentOpenAI(OpenAI, { tracerProvider: recorder.tracerProvider, requestTokenIds: true });
await ask('first');
await ask('second');
await recorder.close();
`,
  // Rollouts started and traced by hand, never finished: they stay running.
  'never-finished.mjs': `${SETUP}
const store = new SqliteLightningStore({ path: 'unfinished.sqlite' });
const tracer = new LightningTracer({ store });
instrumentOpenAI(OpenAI, { tracerProvider: tracer.tracerProvider, requestTokenIds: true });
for (const question of ['a', 'b', 'c']) {
  const started = await store.startRollout({ input: { question } });
  const ids = { rolloutId: started.rollout_id, attemptId: started.attempt.attempt_id };
  await tracer.traceContext(ids, () => ask(question));
}
await tracer.shutdown();
`,
};

let app: ScratchApp;
let llm: FixtureLlm;
let env: Record<string, string>;

beforeAll(async () => {
  llm = await startFixtureLlm();
  env = { OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: 'unused' };
  app = await createScratchApp({
    name: 'misconfigured',
    dependencies: {
      '@arclight/cli': WORKSPACE,
      '@arclight/instrumentation-openai': WORKSPACE,
      '@arclight/otel': WORKSPACE,
      '@arclight/runner': WORKSPACE,
      '@arclight/store': WORKSPACE,
      openai: 'latest',
    },
    files: FILES,
  });
});

afterAll(async () => {
  await app?.remove();
  await llm?.close();
});

describe('a misconfigured app', () => {
  it('is warned once, with the fix, when LLM calls happen outside any rollout', async () => {
    const run = await app.node('outside-rollout.mjs', [], { env });
    expect(run.code, run.stderr).toBe(0);
    const warnings = run.stderr.match(/\[ARCLIGHT_SPANS_OUTSIDE_ROLLOUT\]/g) ?? [];
    expect(warnings, run.stderr).toHaveLength(1);
    expect(run.stderr).toContain(
      "LLM call 'openai.chat.completion' was recorded outside any rollout",
    );
    expect(run.stderr).toContain('recorder.record(task, () => agent(task))');
  });

  it('gets a failing export that names the unfinished rollouts and the fix', async () => {
    const run = await app.node('never-finished.mjs', [], { env });
    expect(run.code, run.stderr).toBe(0);
    const exported = await app.run(
      'npx',
      [
        'arclight',
        'export',
        '--db',
        'unfinished.sqlite',
        '--format',
        'triplets',
        '--out',
        'out.jsonl',
      ],
      { env },
    );
    const output = `${exported.stdout}\n${exported.stderr}`;
    expect(exported.code, output).not.toBe(0);
    expect(output).toMatch(/\b3\b/); // the three rollouts skipped
    expect(output).toContain('--rollout-status running');
  });
});
