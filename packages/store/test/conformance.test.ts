import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { InMemoryLightningStore, SqliteLightningStore } from '../src/index.js';
import { describeLightningStoreConformance } from '../src/testing/index.js';

describeLightningStoreConformance({
  name: 'InMemoryLightningStore',
  create: async ({ clock, scanDebounceSeconds }) =>
    new InMemoryLightningStore({ clock, scanDebounceSeconds }),
});

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describeLightningStoreConformance({
  name: 'SqliteLightningStore',
  create: async ({ clock, scanDebounceSeconds }) => {
    const dir = mkdtempSync(join(tmpdir(), 'arclight-conformance-'));
    tempDirs.push(dir);
    return new SqliteLightningStore({ path: join(dir, 'store.db'), clock, scanDebounceSeconds });
  },
});
