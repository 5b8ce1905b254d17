import { ROLLOUT_MODES, ROLLOUT_STATUSES } from '@arclight/core';
import { useMemo, useState } from 'preact/hooks';
import { loadRewards } from '../api/rewards.js';
import { AttemptsTable } from '../components/attempts-table.js';
import { Badge, ErrorBox, Loading, Section } from '../components/ui.js';
import { useApp } from '../context.js';
import { durationOf, formatDuration, formatNumber, formatTime } from '../model/format.js';
import type { Attempt, AttemptedRollout, Rollout } from '../model/wire.js';
import { href, navigate, type Route } from '../router.js';
import { useData } from '../use-data.js';

/** Time filter choices: rollouts started within the last N seconds. */
export const TIME_WINDOWS: Record<string, number> = {
  '5m': 300,
  '15m': 900,
  '1h': 3600,
  '24h': 86_400,
  '7d': 604_800,
};
const PAGE_ROWS = 100;

type Row = Rollout | AttemptedRollout;
const latestAttempt = (r: Row): Attempt | null => ('attempt' in r && r.attempt ? r.attempt : null);

/** `Type: message` of a failed attempt's recorded error, or ''. */
function attemptErrorText(attempt: Attempt): string {
  const err = (attempt.metadata?.error ?? null) as { type?: string; message?: string } | null;
  return err ? `${err.type ?? 'Error'}: ${err.message ?? ''}` : '';
}

function AttemptsRow({ rollout, columns }: { rollout: Row; columns: number }) {
  const { api } = useApp();
  const { data, error } = useData(() => api.attempts(rollout.rollout_id), [rollout.rollout_id]);
  const now = Date.now() / 1000;
  return (
    <tr class="attempts-row">
      <td colSpan={columns}>
        <ErrorBox error={error} />
        {!data ? (
          <Loading what="attempts" />
        ) : (
          <AttemptsTable
            attempts={data}
            now={now}
            inner
            last={{ title: 'error', class: 'error-text', cell: attemptErrorText }}
          />
        )}
      </td>
    </tr>
  );
}

export function RolloutsPage({ route }: { route: Route }) {
  const { api } = useApp();
  const statuses = route.query.getAll('status');
  const mode = route.query.get('mode') ?? '';
  const time = route.query.get('time') ?? '';
  const version = route.query.get('resources') ?? '';
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [shown, setShown] = useState(PAGE_ROWS);
  const { data, error } = useData(() => api.rollouts(statuses), [statuses]);

  const setFilter = (changes: Record<string, string | string[] | undefined>) => {
    const current: Record<string, string | string[] | undefined> = {
      status: statuses,
      mode: mode || undefined,
      time: time || undefined,
      resources: version || undefined,
    };
    navigate(href(['rollouts'], { ...current, ...changes }), true);
  };

  const versions = useMemo(
    () => [...new Set((data?.items ?? []).map((r) => r.resources_id ?? '').filter(Boolean))].sort(),
    [data],
  );
  const now = Date.now() / 1000;
  const rows = (data?.items ?? []).filter(
    (r) =>
      (mode === '' || (mode === 'none' ? r.mode === null : r.mode === mode)) &&
      (version === '' || r.resources_id === version) &&
      (time === '' || r.start_time >= now - (TIME_WINDOWS[time] ?? Infinity)),
  );
  const visible = rows.slice(0, shown);
  const rewards = useData(
    () => loadRewards(api, visible),
    [visible.map((r) => `${r.rollout_id}:${r.status}`)],
  );
  const columns = 10;

  return (
    <Section
      title="Rollouts"
      actions={
        <span class="muted" data-testid="rollout-count">
          {data ? `${rows.length} shown of ${data.total} in the store` : ''}
        </span>
      }
    >
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <fieldset>
          <legend>Status</legend>
          {ROLLOUT_STATUSES.map((s) => (
            <label key={s} class="check">
              <input
                type="checkbox"
                name="status"
                value={s}
                checked={statuses.includes(s)}
                onChange={(e) => {
                  const on = (e.target as HTMLInputElement).checked;
                  setFilter({ status: on ? [...statuses, s] : statuses.filter((x) => x !== s) });
                }}
              />
              {s}
            </label>
          ))}
        </fieldset>
        <label>
          Mode{' '}
          <select
            name="mode"
            value={mode}
            onChange={(e) =>
              setFilter({ mode: (e.target as HTMLSelectElement).value || undefined })
            }
          >
            <option value="">any</option>
            {ROLLOUT_MODES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
            <option value="none">none</option>
          </select>
        </label>
        <label>
          Started{' '}
          <select
            name="time"
            value={time}
            onChange={(e) =>
              setFilter({ time: (e.target as HTMLSelectElement).value || undefined })
            }
          >
            <option value="">any time</option>
            {Object.keys(TIME_WINDOWS).map((t) => (
              <option key={t} value={t}>
                last {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          Resources{' '}
          <select
            name="resources"
            value={version}
            onChange={(e) =>
              setFilter({ resources: (e.target as HTMLSelectElement).value || undefined })
            }
          >
            <option value="">any version</option>
            {versions.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
      </form>
      <ErrorBox error={error} />
      {!data && !error && <Loading what="rollouts" />}
      {data && (
        <table class="table" data-testid="rollouts-table">
          <thead>
            <tr>
              <th />
              <th>rollout</th>
              <th>status</th>
              <th>mode</th>
              <th>resources</th>
              <th>started</th>
              <th>duration</th>
              <th>attempts</th>
              <th>worker</th>
              <th>reward</th>
            </tr>
          </thead>
          <tbody>
            {visible.map((r) => {
              const attempt = latestAttempt(r);
              const open = expanded.has(r.rollout_id);
              const reward = rewards.data?.get(r.rollout_id);
              return [
                <tr key={r.rollout_id} data-status={r.status}>
                  <td>
                    <button
                      type="button"
                      class="link"
                      aria-label={`attempts of ${r.rollout_id}`}
                      onClick={() => {
                        const next = new Set(expanded);
                        if (open) next.delete(r.rollout_id);
                        else next.add(r.rollout_id);
                        setExpanded(next);
                      }}
                    >
                      {open ? '▾' : '▸'}
                    </button>
                  </td>
                  <td>
                    <a href={href(['rollouts', r.rollout_id])}>{r.rollout_id}</a>
                  </td>
                  <td>
                    <Badge value={r.status} />
                  </td>
                  <td>{r.mode ?? '—'}</td>
                  <td>{r.resources_id ?? '—'}</td>
                  <td>{formatTime(r.start_time)}</td>
                  <td>{formatDuration(durationOf(r.start_time, r.end_time, now))}</td>
                  <td>{attempt ? attempt.sequence_id : 0}</td>
                  <td>{attempt?.worker_id ?? '—'}</td>
                  <td>{formatNumber(reward)}</td>
                </tr>,
                open ? (
                  <AttemptsRow key={`${r.rollout_id}-attempts`} rollout={r} columns={columns} />
                ) : null,
              ];
            })}
          </tbody>
        </table>
      )}
      {rows.length > shown && (
        <button type="button" onClick={() => setShown(shown + PAGE_ROWS)}>
          Show {Math.min(PAGE_ROWS, rows.length - shown)} more
        </button>
      )}
      {data && data.items.length < data.total && (
        <p class="muted">
          The newest {data.items.length} rollouts of {data.total} are loaded; filters apply to
          these.
        </p>
      )}
    </Section>
  );
}
