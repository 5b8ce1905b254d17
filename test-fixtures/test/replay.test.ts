import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson, defaultRecordingsPath, recordingKey } from '../src/index.js';
import { useFixtureLlm } from './helpers.js';

interface Recording {
  request: Record<string, unknown>;
  response: { choices: { message: { content: string | null; tool_calls?: unknown[] } }[] };
}

const path = defaultRecordingsPath()!;
const recordings = readFileSync(path, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Recording);
const env = useFixtureLlm();

describe('recordings replay', () => {
  it('finds the shared recordings file from the repo root', () => {
    expect(path.endsWith('shared/fixtures/openai-chat-recordings.jsonl')).toBe(true);
    expect(recordings.length).toBeGreaterThan(10);
  });

  it('answers every recorded request with the first recording of its messages + model', async () => {
    const first = new Map<string, Recording>();
    for (const r of recordings) {
      const key = recordingKey(r.request.messages, r.request.model);
      if (!first.has(key)) first.set(key, r);
    }
    for (const r of recordings) {
      const expected = first.get(recordingKey(r.request.messages, r.request.model))!.response
        .choices[0]!.message;
      const res = await fetch(`${env.llm.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...r.request, stream: false }),
      });
      expect(res.status).toBe(200);
      const message = ((await res.json()) as Recording['response']).choices[0]!.message as {
        content: string | null;
        tool_calls: { id: string; function: { name: string; arguments: string } }[];
      };
      expect(message.content).toBe(expected.content ?? null);
      expect(canonicalJson(message.tool_calls)).toBe(canonicalJson(expected.tool_calls ?? []));
    }
  });
});
