import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..');

let llm: FixtureLlm;
let workDir: string;
beforeAll(async () => {
  llm = await startFixtureLlm({ recordings: false });
  workDir = mkdtempSync(join(tmpdir(), 'arclight-openai-'));
});
afterAll(async () => {
  await llm.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe.each([
  { name: 'openai@7', sdk: 'openai' },
  { name: 'openai@6', sdk: 'openai6' },
])('CommonJS require hook ($name)', ({ name, sdk }) => {
  it('patches require("openai") once the instrumentation is enabled', async () => {
    // An app directory whose node_modules/openai is the SDK under test (the hook matches the name "openai").
    const app = join(workDir, name.replace(/\W/g, '_'));
    mkdirSync(join(app, 'node_modules'), { recursive: true });
    symlinkSync(dirname(require.resolve(sdk)), join(app, 'node_modules', 'openai'));
    const script = join(app, 'main.cjs');
    symlinkSync(join(here, 'child', 'cjs-require.cjs'), script);

    const { stdout } = await run(process.execPath, ['--preserve-symlinks', script], {
      cwd: app,
      env: {
        ...process.env,
        FIXTURE_BASE_URL: llm.baseUrl,
        ARCLIGHT_OPENAI_ENTRY: join(packageDir, 'dist', 'index.js'),
        ARCLIGHT_SDK_TRACE_ENTRY: require.resolve('@opentelemetry/sdk-trace'),
      },
    });
    const result = JSON.parse(stdout) as {
      answer: string;
      spans: { name: string; attributes: Record<string, unknown> }[];
    };
    expect(result.answer).toBe('Fixture answer to: hello from cjs');
    expect(result.spans.map((s) => s.name)).toEqual(['openai.chat.completion']);
    expect(result.spans[0]?.attributes).toMatchObject({
      'gen_ai.prompt.0.content': 'hello from cjs',
      'gen_ai.completion.0.content': result.answer,
      'gen_ai.request.return_token_ids': true,
    });
    expect(result.spans[0]?.attributes.prompt_token_ids).toBeInstanceOf(Array);
  });
});

describe('unread streams', () => {
  it('ends the span of a stream dropped unread once it is garbage-collected', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--expose-gc', join(here, 'child', 'gc-unread-stream.mjs')],
      { cwd: packageDir, env: { ...process.env, FIXTURE_BASE_URL: llm.baseUrl } },
    );
    const spans = JSON.parse(stdout) as Record<string, unknown>[];
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({
      'arclight.stream.partial': true,
      'arclight.stream.end_reason': 'garbage_collected',
      'gen_ai.prompt.0.content': 'never read',
    });
  });
});
