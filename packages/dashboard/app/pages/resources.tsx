import { loadRewards } from '../api/rewards.js';
import { PromptDiff } from '../components/prompt-diff.js';
import { ErrorBox, Loading, Section } from '../components/ui.js';
import { useApp } from '../context.js';
import { formatNumber, formatTime } from '../model/format.js';
import { computeProgress } from '../model/progress.js';
import { bestVersion, type VersionView, versionViews } from '../model/resources.js';
import { href, navigate, type Route } from '../router.js';
import { useData } from '../use-data.js';

const scoreText = (v: VersionView) =>
  v.score === null
    ? '—'
    : `${formatNumber(v.score)} (${v.score_basis === 'val' ? `val, n=${v.stats!.val.count}` : `all, n=${v.stats!.count}`})`;

export function ResourcesPage({ route }: { route: Route }) {
  const { api } = useApp();
  const data = useData(async () => {
    const [updates, rollouts] = await Promise.all([api.resources(), api.rollouts()]);
    const rewards = await loadRewards(api, rollouts.items);
    const views = versionViews(updates, computeProgress(rollouts.items, rewards).versions);
    return { views, best: bestVersion(views) };
  }, []);
  const views = data.data?.views ?? [];
  const selectedId =
    route.query.get('version') ??
    data.data?.best?.resources_id ??
    views.at(-1)?.resources_id ??
    null;
  const index = views.findIndex((v) => v.resources_id === selectedId);
  const selected = index >= 0 ? views[index]! : null;
  const baseId = route.query.get('base') ?? (index > 0 ? views[index - 1]!.resources_id : null);
  const base = views.find((v) => v.resources_id === baseId) ?? null;
  const best = data.data?.best ?? null;
  const go = (changes: Record<string, string | undefined>) =>
    navigate(
      href(['resources'], {
        version: selectedId ?? undefined,
        base: baseId ?? undefined,
        ...changes,
      }),
      true,
    );

  return (
    <>
      <Section title="Resources versions">
        <ErrorBox error={data.error} />
        {!data.data && !data.error && <Loading what="resources" />}
        {best && (
          <div class="best" data-testid="best-version">
            Best version: <strong>{best.resources_id}</strong> — score {scoreText(best)}
            <div class="muted">
              Score: mean final reward of the version's validation rollouts (of all its rollouts
              when no version has validation rollouts); a small n is a noisy score.
            </div>
          </div>
        )}
        {data.data && views.length === 0 && <p class="muted">The store holds no resources.</p>}
        {views.length > 0 && (
          <table class="table" data-testid="resources-table">
            <thead>
              <tr>
                <th>version</th>
                <th>created</th>
                <th>prompt templates</th>
                <th>other resources</th>
                <th>score</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {views.map((v) => (
                <tr key={v.resources_id} class={v.resources_id === selectedId ? 'selected' : ''}>
                  <td>
                    <button
                      type="button"
                      class="link"
                      onClick={() => go({ version: v.resources_id, base: undefined })}
                    >
                      {v.resources_id}
                    </button>
                    {best?.resources_id === v.resources_id && (
                      <span class="star" title="best version">
                        {' '}
                        ★
                      </span>
                    )}
                  </td>
                  <td>{formatTime(v.create_time)}</td>
                  <td>{Object.keys(v.templates).join(', ') || '—'}</td>
                  <td>{v.others.map((o) => `${o.name} (${o.type})`).join(', ') || '—'}</td>
                  <td>{scoreText(v)}</td>
                  <td>
                    <a href={href(['rollouts'], { resources: v.resources_id })}>rollouts</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {selected && (
        <Section
          title={`${selected.resources_id}${base ? ` compared with ${base.resources_id}` : ''}`}
          actions={
            <label>
              compare with{' '}
              <select
                name="base"
                value={baseId ?? ''}
                onChange={(e) => go({ base: (e.target as HTMLSelectElement).value || undefined })}
              >
                <option value="">nothing</option>
                {views
                  .filter((v) => v.resources_id !== selected.resources_id)
                  .map((v) => (
                    <option key={v.resources_id} value={v.resources_id}>
                      {v.resources_id}
                    </option>
                  ))}
              </select>
            </label>
          }
        >
          {Object.keys(selected.templates).length === 0 && (
            <p class="muted">This version has no prompt template.</p>
          )}
          {Object.entries(selected.templates).map(([name, template]) => (
            <div key={name} class="template">
              <h3>{name}</h3>
              {base && base.templates[name] !== undefined ? (
                base.templates[name] === template ? (
                  <>
                    <p class="muted">unchanged from {base.resources_id}</p>
                    <pre>{template}</pre>
                  </>
                ) : (
                  <PromptDiff before={base.templates[name]!} after={template} />
                )
              ) : (
                <pre data-testid="template">{template}</pre>
              )}
            </div>
          ))}
          {selected.others.map((o) => (
            <p key={o.name}>
              <strong>{o.name}</strong> ({o.type}): {o.detail}
            </p>
          ))}
        </Section>
      )}
    </>
  );
}
