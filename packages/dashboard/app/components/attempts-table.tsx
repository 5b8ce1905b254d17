import { durationOf, formatDuration, formatTime } from '../model/format.js';
import type { Attempt } from '../model/wire.js';
import { href } from '../router.js';
import { Badge } from './ui.js';

/** The table of a rollout's attempts (the rollout page, and the attempts row that opens in the rollouts list). */
export function AttemptsTable({
  attempts,
  now,
  inner = false,
  selected,
  last,
}: {
  attempts: Attempt[];
  now: number;
  /** Nested in another table's row. */
  inner?: boolean;
  /** The attempt shown on the page, highlighted. */
  selected?: string | null;
  /** The last column: its title, and its cell for each attempt. */
  last: { title: string; class?: string; cell: (attempt: Attempt) => string };
}) {
  return (
    <table class={inner ? 'table inner' : 'table'} data-testid="attempts">
      <thead>
        <tr>
          <th>#</th>
          <th>attempt</th>
          <th>status</th>
          <th>worker</th>
          <th>started</th>
          <th>duration</th>
          <th>{last.title}</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((a) => (
          <tr
            key={a.attempt_id}
            class={selected != null && a.attempt_id === selected ? 'selected' : ''}
          >
            <td>{a.sequence_id}</td>
            <td>
              <a href={href(['rollouts', a.rollout_id], { attempt: a.attempt_id })}>
                {a.attempt_id}
              </a>
            </td>
            <td>
              <Badge value={a.status} />
            </td>
            <td>{a.worker_id ?? '—'}</td>
            <td>{formatTime(a.start_time)}</td>
            <td>{formatDuration(durationOf(a.start_time, a.end_time, now))}</td>
            <td class={last.class}>{last.cell(a)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
