import { LLM, PromptTemplate, ProxyLLM, type ResourcesUpdate } from '@arclight/core';
import { expect } from 'vitest';
import type { CaseGroup } from '../target.js';

const llm = (model: string, endpoint = 'http://localhost:8080/v1') =>
  new LLM({ endpoint, model, sampling_parameters: { temperature: 0.7 } });
const prompt = (template: string, engine: 'f-string' | 'jinja' = 'f-string') =>
  new PromptTemplate({ template, engine });
const resourceIds = (page: { items: ResourcesUpdate[] }): string[] =>
  page.items.map((r) => r.resources_id);

export const resourceCases: CaseGroup = {
  name: 'resources',
  cases: [
    {
      id: 'resources.add',
      title:
        'addResources creates version 1 under a new id, becomes latest and returns typed resources',
      async run({ store }) {
        expect(await store.getLatestResources()).toBeNull();
        const update = await store.addResources({
          main_llm: llm('test-model'),
          greeting: prompt('Hello {name}!'),
        });
        expect(update.resources_id).toMatch(/^rs-/);
        expect(update.version).toBe(1);
        expect(update.update_time).toBe(update.create_time);

        for (const got of [
          update,
          await store.getLatestResources(),
          await store.getResourcesById(update.resources_id),
        ]) {
          expect(got?.resources_id).toBe(update.resources_id);
          const main = got!.resources.main_llm;
          const greeting = got!.resources.greeting;
          expect(main).toBeInstanceOf(LLM);
          expect((main as LLM).model).toBe('test-model');
          expect((main as LLM).sampling_parameters).toEqual({ temperature: 0.7 });
          expect((main as LLM).getBaseUrl()).toBe('http://localhost:8080/v1');
          expect(greeting).toBeInstanceOf(PromptTemplate);
          expect((greeting as PromptTemplate).format({ name: 'Ada' })).toBe('Hello Ada!');
        }
        const second = await store.addResources({ llm: llm('model-v2') });
        expect(second.resources_id).not.toBe(update.resources_id);
        expect(second.version).toBe(1);
        expect((await store.getLatestResources())?.resources_id).toBe(second.resources_id);
        expect(
          ((await store.getResourcesById(update.resources_id))!.resources.main_llm as LLM).model,
        ).toBe('test-model');
      },
    },
    {
      id: 'resources.add-timestamps',
      title: 'addResources stamps create_time = update_time = now',
      clock: true,
      async run({ store, clock }) {
        const update = await store.addResources({ p: prompt('x') });
        expect(update.create_time).toBe(clock.now());
        expect(update.update_time).toBe(clock.now());
      },
    },
    {
      id: 'resources.proxy-llm',
      title: 'ProxyLLM resources come back as ProxyLLM instances that route by rollout and attempt',
      async run({ store }) {
        const update = await store.updateResources('proxy', {
          llm: new ProxyLLM({ endpoint: 'http://proxy:4000/v1', model: 'm', api_key: 'k' }),
        });
        const stored = (await store.getResourcesById(update.resources_id))!.resources.llm;
        expect(stored).toBeInstanceOf(ProxyLLM);
        expect((stored as ProxyLLM).resource_type).toBe('proxy_llm');
        expect((stored as ProxyLLM).api_key).toBe('k');
        expect((stored as ProxyLLM).getBaseUrl('ro-1', 'at-1')).toBe(
          'http://proxy:4000/rollout/ro-1/attempt/at-1/v1',
        );
      },
    },
    {
      id: 'resources.update-upsert',
      title:
        'updateResources creates unknown ids at version 1 and bumps version and update_time of known ones',
      async run({ store, clock }) {
        const created = await store.updateResources('v1', { main_llm: llm('test-model-v1') });
        expect(created.resources_id).toBe('v1');
        expect(created.version).toBe(1);
        expect(created.update_time).toBe(created.create_time);
        expect((await store.getLatestResources())?.resources_id).toBe('v1');

        const added = await store.addResources({ main_llm: llm('model') });
        for (let version = 2; version <= 5; version++) {
          clock.advance(1);
          const updated = await store.updateResources(added.resources_id, {
            main_llm: llm(`model-v${version}`),
          });
          expect(updated.resources_id).toBe(added.resources_id);
          expect(updated.version).toBe(version);
          expect(updated.create_time).toBe(added.create_time);
          expect(updated.update_time).toBeGreaterThan(added.update_time);
          expect((updated.resources.main_llm as LLM).model).toBe(`model-v${version}`);
        }
        const stored = await store.getResourcesById(added.resources_id);
        expect(stored?.version).toBe(5);
        expect((stored!.resources.main_llm as LLM).model).toBe('model-v5');
        expect((await store.getResourcesById('v1'))?.version).toBe(1);
        expect((await store.queryResources()).total).toBe(2);
      },
    },
    {
      id: 'resources.latest-by-update-time',
      title: 'the latest resources are the most recently added or updated',
      async run({ store, clock }) {
        const a = await store.addResources({ p: prompt('a') });
        clock.advance(1);
        const b = await store.addResources({ p: prompt('b') });
        expect((await store.getLatestResources())?.resources_id).toBe(b.resources_id);
        clock.advance(1);
        await store.updateResources(a.resources_id, { p: prompt('a2') });
        const latest = await store.getLatestResources();
        expect(latest?.resources_id).toBe(a.resources_id);
        expect(latest?.version).toBe(2);
        expect((latest!.resources.p as PromptTemplate).template).toBe('a2');
      },
    },
    {
      id: 'resources.query',
      title: 'queryResources lists history, filters by id (exact, contains), sorts and paginates',
      async run({ store, clock }) {
        expect((await store.queryResources()).items).toEqual([]);
        const first = await store.addResources({ llm: llm('model-v1') });
        for (const suffix of ['alpha', 'beta', 'gamma']) {
          clock.advance(1);
          await store.updateResources(`manual-${suffix}`, { prompt: prompt(suffix, 'jinja') });
        }
        const history = await store.queryResources();
        expect(resourceIds(history)).toEqual([
          first.resources_id,
          'manual-alpha',
          'manual-beta',
          'manual-gamma',
        ]);
        expect([history.limit, history.offset, history.total]).toEqual([-1, 0, 4]);
        expect(history.items[1]!.resources.prompt).toBeInstanceOf(PromptTemplate);

        expect(resourceIds(await store.queryResources({ resources_id_contains: 'beta' }))).toEqual([
          'manual-beta',
        ]);
        expect(resourceIds(await store.queryResources({ resources_id: 'manual-alpha' }))).toEqual([
          'manual-alpha',
        ]);
        expect(
          resourceIds(
            await store.queryResources({
              resources_id: 'manual-alpha',
              resources_id_contains: 'manual',
            }),
          ),
        ).toEqual(['manual-alpha']);
        expect(
          (
            await store.queryResources({
              resources_id: 'manual-alpha',
              resources_id_contains: 'beta',
            })
          ).total,
        ).toBe(0);

        const sorted = await store.queryResources({
          sort_by: 'resources_id',
          sort_order: 'desc',
          limit: 1,
        });
        // "rs-…" sorts after "manual-…".
        expect(resourceIds(sorted)).toEqual([first.resources_id]);
        const page = await store.queryResources({
          resources_id_contains: 'manual-',
          sort_by: 'resources_id',
          sort_order: 'asc',
          limit: 2,
          offset: 1,
        });
        expect(resourceIds(page)).toEqual(['manual-beta', 'manual-gamma']);
        expect([page.limit, page.offset, page.total]).toEqual([2, 1, 3]);
        expect(
          (await store.queryResources({ sort_by: 'resources_id', limit: 1, offset: 10 })).items,
        ).toEqual([]);
        const byTime = await store.queryResources({ sort_by: 'update_time', sort_order: 'desc' });
        expect(resourceIds(byTime)).toEqual([
          'manual-gamma',
          'manual-beta',
          'manual-alpha',
          first.resources_id,
        ]);
      },
    },
  ],
};
