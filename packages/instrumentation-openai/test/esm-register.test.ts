import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..');

let llm: FixtureLlm;
let app: string;
beforeAll(async () => {
  llm = await startFixtureLlm({ recordings: false });
  // app/node_modules/openai (7) and app/node_modules/fw/node_modules/openai (6): a framework on its own copy.
  app = mkdtempSync(join(tmpdir(), 'arclight-openai-esm-'));
  const fw = join(app, 'node_modules', 'fw');
  mkdirSync(join(fw, 'node_modules'), { recursive: true });
  symlinkSync(dirname(require.resolve('openai')), join(app, 'node_modules', 'openai'));
  symlinkSync(dirname(require.resolve('openai6')), join(fw, 'node_modules', 'openai'));
  writeFileSync(
    join(fw, 'package.json'),
    JSON.stringify({ name: 'fw', version: '1.0.0', type: 'module', main: 'index.js' }),
  );
  writeFileSync(
    join(fw, 'index.js'),
    "import OpenAI from 'openai';\nexport const frameworkClient = (options) => new OpenAI(options);\n",
  );
  symlinkSync(join(here, 'child', 'esm-register.mjs'), join(app, 'main.mjs'));
});
afterAll(async () => {
  await llm.close();
  rmSync(app, { recursive: true, force: true });
});

describe('--import @arclight/instrumentation-openai/register', () => {
  it('instruments every copy of openai loaded by import (the app on 7, a framework on its own 6)', async () => {
    const register = pathToFileURL(join(packageDir, 'dist', 'register.js')).href;
    const { stdout } = await run(
      process.execPath,
      ['--preserve-symlinks', '--preserve-symlinks-main', '--import', register, 'main.mjs'],
      {
        cwd: app,
        timeout: 120_000,
        env: {
          ...process.env,
          FIXTURE_BASE_URL: llm.baseUrl,
          ARCLIGHT_REGISTER_ENTRY: register,
          ARCLIGHT_SDK_TRACE_ENTRY: pathToFileURL(require.resolve('@opentelemetry/sdk-trace')).href,
        },
      },
    );
    const result = JSON.parse(stdout) as {
      answers: Record<string, string>;
      spans: { name: string; attributes: Record<string, unknown> }[];
    };
    expect(result.answers).toEqual({
      app: 'Fixture answer to: hello from app',
      framework: 'Fixture answer to: hello from framework',
    });
    expect(result.spans.map((s) => s.attributes['gen_ai.prompt.0.content'])).toEqual([
      'hello from app',
      'hello from framework',
    ]);
    for (const span of result.spans) {
      expect(span.name).toBe('openai.chat.completion');
      // requestTokenIds: 'auto' asks a server that is not api.openai.com for token ids.
      expect(span.attributes['gen_ai.request.return_token_ids']).toBe(true);
      expect(span.attributes.prompt_token_ids).toBeInstanceOf(Array);
      expect(span.attributes.response_token_ids).toBeInstanceOf(Array);
    }
  });
});
