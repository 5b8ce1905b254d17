import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSpan } from '@arclight/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemoryLightningStore, SqliteLightningStore } from '../src/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arclight-span-texts-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('querySpanTexts', () => {
  it('gives each span of the page as its stored JSON text (SQLite), null where no text is kept (memory)', async () => {
    const store = new SqliteLightningStore({ path: join(dir, 'store.sqlite') });
    try {
      const started = await store.startRollout({ input: 'q' });
      const ids = { rollout_id: started.rollout_id, attempt_id: started.attempt.attempt_id };
      const spans = ['a', 'b', 'c'].map((name, i) =>
        createSpan({
          ...ids,
          name,
          span_id: `000000000000000${i}`,
          trace_id: '0af7651916cd43dd8448eb211c80319c',
          attributes: { text: `é ${name} \ud800`, n: [1e21, -0, 0.1 + 0.2] },
        }),
      );
      // Not awaited: the texts read joins the pending group commit and answers after it, as querySpans does.
      const added = store.addManySpans(spans);
      const texts = store.querySpanTexts(ids.rollout_id, {
        attempt_id: 'latest',
        limit: 2,
        offset: 1,
      });
      await added;
      const parsed = await store.querySpans(ids.rollout_id, {
        attempt_id: 'latest',
        limit: 2,
        offset: 1,
      });
      const page = await texts;
      expect(page).not.toBeNull();
      expect({ ...page!, items: page!.items.map((t) => JSON.parse(t)) }).toEqual(parsed);
      expect(page!.items).toEqual(parsed.items.map((s) => JSON.stringify(s)));
      expect(page).toMatchObject({ limit: 2, offset: 1, total: 3 });
      await expect(store.querySpanTexts(ids.rollout_id, { limit: 0 })).rejects.toThrow(/limit/);
    } finally {
      await store.close();
    }
    const memory = new InMemoryLightningStore();
    expect(await memory.querySpanTexts('ro-any')).toBeNull();
    await memory.close();
  });
});
