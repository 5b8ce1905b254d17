import type { ResourcesUpdate } from '@arclight/core';
import type { VersionStats } from './progress.js';

/** One resources version with its prompt templates and its score. */
export interface VersionView {
  resources_id: string;
  create_time: number;
  update_time: number;
  /** Prompt templates by resource name. */
  templates: Record<string, string>;
  /** Other resources (LLMs…): name → type and a one-line description. */
  others: { name: string; type: string; detail: string }[];
  stats: VersionStats | null;
  /** The score used to rank versions: mean validation reward, else mean reward of all its rollouts. */
  score: number | null;
  score_basis: 'val' | 'all' | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function versionViews(
  updates: readonly ResourcesUpdate[],
  stats: readonly VersionStats[],
): VersionView[] {
  const byId = new Map(stats.map((s) => [s.resources_id, s]));
  return [...updates]
    .sort((a, b) => a.create_time - b.create_time || a.version - b.version)
    .map((update) => {
      const templates: Record<string, string> = {};
      const others: VersionView['others'] = [];
      for (const [name, resource] of Object.entries(update.resources ?? {})) {
        const r: unknown = resource;
        if (!isRecord(r)) continue;
        if (r.resource_type === 'prompt_template' && typeof r.template === 'string') {
          templates[name] = r.template;
        } else {
          const type = String(r.resource_type ?? 'resource');
          const detail =
            type === 'llm' || type === 'proxy_llm'
              ? `${String(r.model ?? '?')} at ${String(r.endpoint ?? '?')}`
              : JSON.stringify(r).slice(0, 160);
          others.push({ name, type, detail });
        }
      }
      const s = byId.get(update.resources_id) ?? null;
      const basis = s && s.val.count > 0 ? 'val' : s && s.count > 0 ? 'all' : null;
      return {
        resources_id: update.resources_id,
        create_time: update.create_time,
        update_time: update.update_time,
        templates,
        others,
        stats: s,
        score: basis === 'val' ? s!.val.mean : basis === 'all' ? s!.mean : null,
        score_basis: basis,
      };
    });
}

/**
 * The best version: the highest validation score among versions with validation rollouts (all rollouts when no
 * version has any); ties go to the earlier version.
 */
export function bestVersion(views: readonly VersionView[]): VersionView | null {
  const withVal = views.filter((v) => v.score_basis === 'val');
  const pool = withVal.length > 0 ? withVal : views.filter((v) => v.score !== null);
  let best: VersionView | null = null;
  for (const v of pool)
    if (best === null || (v.score ?? -Infinity) > (best.score ?? -Infinity)) best = v;
  return best;
}
