import { Badge, Collapsible, ErrorBox, Json, Loading, Section } from '../components/ui.js';
import { useApp } from '../context.js';
import { formatAgo } from '../model/format.js';
import { href } from '../router.js';
import { useData } from '../use-data.js';

/** The figures of a heartbeat worth a glance (upstream's `system_snapshot()` keys, when present). */
function heartbeatSummary(stats: Record<string, unknown>): string {
  const parts: string[] = [];
  if (stats.host !== undefined) parts.push(`host ${String(stats.host)}`);
  for (const [key, label] of [
    ['cpu_usage_pct', 'cpu'],
    ['mem_pct', 'mem'],
    ['disk_pct', 'disk'],
  ] as const) {
    if (typeof stats[key] === 'number') parts.push(`${label} ${stats[key]} %`);
  }
  return parts.length > 0 ? parts.join(' · ') : `${Object.keys(stats).length} fields`;
}

export function RunnersPage() {
  const { api } = useApp();
  const { data, error } = useData(() => api.workers(), []);
  const now = Date.now() / 1000;
  return (
    <Section
      title="Runners"
      actions={<span class="muted">{data ? `${data.length} workers` : ''}</span>}
    >
      <ErrorBox error={error} />
      {!data && !error && <Loading what="workers" />}
      {data && data.length === 0 && <p class="muted">No runner has reported to this store.</p>}
      {data && data.length > 0 && (
        <table class="table" data-testid="workers-table">
          <thead>
            <tr>
              <th>worker</th>
              <th>status</th>
              <th>last heartbeat</th>
              <th>last dequeue</th>
              <th>last busy</th>
              <th>last idle</th>
              <th>current rollout</th>
              <th>heartbeat stats</th>
            </tr>
          </thead>
          <tbody>
            {data.map((w) => (
              <tr key={w.worker_id}>
                <td>{w.worker_id}</td>
                <td>
                  <Badge value={w.status} />
                </td>
                <td>{formatAgo(w.last_heartbeat_time, now)}</td>
                <td>{formatAgo(w.last_dequeue_time, now)}</td>
                <td>{formatAgo(w.last_busy_time, now)}</td>
                <td>{formatAgo(w.last_idle_time, now)}</td>
                <td>
                  {w.current_rollout_id ? (
                    <a
                      href={href(['rollouts', w.current_rollout_id], {
                        attempt: w.current_attempt_id ?? undefined,
                      })}
                    >
                      {w.current_rollout_id}
                    </a>
                  ) : (
                    '—'
                  )}
                </td>
                <td>
                  {w.heartbeat_stats ? (
                    <>
                      <div>{heartbeatSummary(w.heartbeat_stats)}</div>
                      <Collapsible title="all">
                        <Json value={w.heartbeat_stats} />
                      </Collapsible>
                    </>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
