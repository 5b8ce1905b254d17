import { getRewardValue } from '@arclight/core';
import { useMemo } from 'preact/hooks';
import { AttemptsTable } from '../components/attempts-table.js';
import { Badge, Collapsible, ErrorBox, Json, Loading, Section } from '../components/ui.js';
import { useApp } from '../context.js';
import { durationOf, formatDuration, formatNumber, formatTime } from '../model/format.js';
import { type CallMessage, llmCallDetails } from '../model/llm-call.js';
import { exceptionOf } from '../model/span-kind.js';
import { adaptAttempt } from '../model/triplets.js';
import { buildWaterfall, type WaterfallRow } from '../model/waterfall.js';
import type { Attempt, Span } from '../model/wire.js';
import { href, navigate, type Route } from '../router.js';
import { useData } from '../use-data.js';

interface AttemptError {
  type?: string;
  message?: string;
  stack?: string;
}

function Messages({ messages, testId }: { messages: CallMessage[]; testId: string }) {
  if (messages.length === 0) return <p class="muted">none recorded</p>;
  return (
    <ol class="messages" data-testid={testId}>
      {messages.map((m, i) => (
        <li key={i} class={`message role-${m.role}`}>
          <div class="message-head">
            <Badge value={m.role} kind="role" />
            {m.tool_call_id && <span class="muted"> reply to {m.tool_call_id}</span>}
            {m.finish_reason && <span class="muted"> finish: {m.finish_reason}</span>}
          </div>
          {m.content && <pre class="message-body">{m.content}</pre>}
          {m.tool_calls.map((call, j) => (
            <div key={j} class="tool-call" data-testid="tool-call">
              <strong>tool call</strong> {call.name}({call.arguments}){' '}
              <span class="muted">{call.id ?? ''}</span>
            </div>
          ))}
        </li>
      ))}
    </ol>
  );
}

function LlmCall({ span }: { span: Span }) {
  const call = llmCallDetails(span);
  return (
    <div class="llm-call" data-testid="llm-call">
      {call.error && <div class="error-box">The adapter cannot read this call: {call.error}</div>}
      <dl class="facts">
        <dt>model</dt>
        <dd>{call.model ?? '—'}</dd>
        <dt>tokens</dt>
        <dd data-testid="token-counts">
          prompt {formatNumber(call.usage.prompt_tokens)} · completion{' '}
          {formatNumber(call.usage.completion_tokens)} · total{' '}
          {formatNumber(call.usage.total_tokens)}
        </dd>
        <dt>token ids</dt>
        <dd data-testid="token-ids">
          {call.prompt_token_ids > 0 ? `prompt ${call.prompt_token_ids} ids` : 'prompt: none'} ·{' '}
          {call.response_token_ids > 0
            ? `response ${call.response_token_ids} ids`
            : 'response: none'}
        </dd>
        <dt>logprobs</dt>
        <dd data-testid="logprobs">{call.has_logprobs ? 'present' : 'absent'}</dd>
        <dt>sampling</dt>
        <dd data-testid="sampling">
          {Object.keys(call.sampling).length === 0
            ? 'defaults'
            : Object.entries(call.sampling)
                .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
                .join(' · ')}
        </dd>
        <dt>response id</dt>
        <dd>{call.response_id ?? '—'}</dd>
      </dl>
      <h4>Prompt</h4>
      <Messages messages={call.prompt} testId="prompt-messages" />
      <h4>Completion</h4>
      <Messages messages={call.completion} testId="completion-messages" />
      <Collapsible title="request fields">
        <Json value={call.request} />
      </Collapsible>
    </div>
  );
}

function SpanDetails({ row }: { row: WaterfallRow }) {
  const span = row.span;
  const exception = exceptionOf(span);
  let reward: unknown = null;
  try {
    reward = getRewardValue(span);
  } catch {
    reward = null;
  }
  return (
    <div class="span-details" data-testid="span-details" data-kind={row.kind}>
      <h3>
        <Badge value={row.kind} kind={`kind-${row.kind}`} /> {row.label}
      </h3>
      <p class="muted">
        span {span.span_id} · parent {span.parent_id ?? '—'} · {formatDuration(row.duration)} ·
        status {span.status?.status_code ?? '—'}
      </p>
      {exception && (
        <div class="exception" data-testid="exception">
          <strong>{exception.type ?? 'Error'}</strong>: {exception.message ?? ''}
          {exception.stacktrace && <pre>{exception.stacktrace}</pre>}
        </div>
      )}
      {reward !== null && (
        <p class="reward" data-testid="reward-value">
          reward <strong>{formatNumber(reward as number)}</strong>
        </p>
      )}
      {row.kind === 'llm' && <LlmCall span={span} />}
      <Collapsible title={`attributes (${Object.keys(span.attributes ?? {}).length})`}>
        <Json value={span.attributes} />
      </Collapsible>
      {span.events?.length > 0 && (
        <Collapsible title={`events (${span.events.length})`}>
          <Json value={span.events} />
        </Collapsible>
      )}
    </div>
  );
}

function Waterfall({
  rows,
  selected,
  onSelect,
}: {
  rows: WaterfallRow[];
  selected: string | null;
  onSelect(id: string): void;
}) {
  return (
    <div class="waterfall" data-testid="waterfall" role="tree">
      {rows.map((row) => (
        <button
          type="button"
          key={row.span_id}
          role="treeitem"
          class={`wf-row kind-${row.kind}${row.span_id === selected ? ' selected' : ''}${row.error ? ' has-error' : ''}`}
          data-span-id={row.span_id}
          data-kind={row.kind}
          onClick={() => onSelect(row.span_id)}
        >
          <span class="wf-name" style={{ paddingLeft: `${row.depth * 16}px` }}>
            <Badge value={row.kind} kind={`kind-${row.kind}`} /> {row.label}
          </span>
          <span class="wf-track">
            <span
              class="wf-bar"
              style={{ left: `${row.offset * 100}%`, width: `max(2px, ${row.width * 100}%)` }}
            />
          </span>
          <span class="wf-dur">{formatDuration(row.duration)}</span>
        </button>
      ))}
    </div>
  );
}

function Triplets({ spans, onSelect }: { spans: Span[]; onSelect(id: string): void }) {
  const view = useMemo(() => adaptAttempt(spans), [spans]);
  if (view.error)
    return (
      <div class="error-box">The adapter cannot build triplets from this trace: {view.error}</div>
    );
  return (
    <div data-testid="triplets">
      <p class="muted">
        What <code>TracerTraceToTriplet</code> (default options) builds from this attempt:{' '}
        {view.triplets.length} triplet(s).
      </p>
      {view.triplets.length > 0 && (
        <table class="table">
          <thead>
            <tr>
              <th>#</th>
              <th>LLM call</th>
              <th>agent</th>
              <th>prompt ids</th>
              <th>response ids</th>
              <th>logprobs</th>
              <th>reward</th>
              <th>left out of</th>
            </tr>
          </thead>
          <tbody>
            {view.triplets.map((t) => (
              <tr key={t.index} data-testid="triplet-row">
                <td>{t.index}</td>
                <td>
                  {t.span_id ? (
                    <button type="button" class="link" onClick={() => onSelect(t.span_id!)}>
                      {t.span_id}
                    </button>
                  ) : (
                    '—'
                  )}
                </td>
                <td>{t.agent ?? '—'}</td>
                <td>{t.prompt_ids}</td>
                <td>{t.response_ids}</td>
                <td>{t.has_logprobs ? 'yes' : 'no'}</td>
                <td>{formatNumber(t.triplet.reward)}</td>
                <td data-testid="left-out">
                  {t.left_out.length === 0
                    ? 'none: every export format takes it'
                    : t.left_out.map((l) => (
                        <div key={l.reason} title={l.formats.join(', ')}>
                          <code>{l.reason}</code> ({l.formats.length} formats): {l.explanation}
                        </div>
                      ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {view.skipped.length > 0 && (
        <>
          <h4>LLM calls the adapter left out</h4>
          <ul data-testid="skipped-calls">
            {view.skipped.map((s) => (
              <li key={s.span_id}>
                <button type="button" class="link" onClick={() => onSelect(s.span_id)}>
                  {s.name} {s.span_id}
                </button>
                : {s.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

export function RolloutPage({ route }: { route: Route }) {
  const { api } = useApp();
  const rolloutId = route.path[1]!;
  const rollout = useData(() => api.rollout(rolloutId), [rolloutId]);
  const attempts = useData(() => api.attempts(rolloutId), [rolloutId]);
  const attemptList: Attempt[] = attempts.data ?? [];
  const attemptId = route.query.get('attempt') ?? attemptList.at(-1)?.attempt_id ?? null;
  const spans = useData(
    () => (attemptId ? api.spans(rolloutId, attemptId) : Promise.resolve([] as Span[])),
    [rolloutId, attemptId],
  );
  const waterfall = useMemo(() => buildWaterfall(spans.data ?? []), [spans.data]);
  const selectedId = route.query.get('span');
  const selected = waterfall.rows.find((r) => r.span_id === selectedId) ?? null;
  const select = (spanId: string) =>
    navigate(
      href(['rollouts', rolloutId], { attempt: attemptId ?? undefined, span: spanId }),
      true,
    );
  const attempt = attemptList.find((a) => a.attempt_id === attemptId) ?? null;
  const attemptError = (attempt?.metadata?.error ?? null) as AttemptError | null;
  const firstException = waterfall.rows.find((r) => r.kind === 'exception' || r.error) ?? null;
  const r = rollout.data;
  const now = Date.now() / 1000;

  return (
    <>
      <Section
        title={`Rollout ${rolloutId}`}
        actions={<a href={href(['rollouts'])}>← all rollouts</a>}
      >
        <ErrorBox error={rollout.error} />
        {rollout.data === null && (
          <div class="error-box">No rollout {rolloutId} in this store.</div>
        )}
        {r && (
          <dl class="facts" data-testid="rollout-facts">
            <dt>status</dt>
            <dd>
              <Badge value={r.status} />
            </dd>
            <dt>mode</dt>
            <dd>{r.mode ?? '—'}</dd>
            <dt>resources</dt>
            <dd>
              {r.resources_id ? (
                <a href={href(['resources'], { version: r.resources_id })}>{r.resources_id}</a>
              ) : (
                '—'
              )}
            </dd>
            <dt>started</dt>
            <dd>{formatTime(r.start_time)}</dd>
            <dt>duration</dt>
            <dd>{formatDuration(durationOf(r.start_time, r.end_time, now))}</dd>
            <dt>input</dt>
            <dd>
              <Json value={r.input} />
            </dd>
          </dl>
        )}
        <h3>Attempts</h3>
        <ErrorBox error={attempts.error} />
        <AttemptsTable
          attempts={attemptList}
          now={now}
          selected={attemptId}
          last={{ title: 'last heartbeat', cell: (a) => formatTime(a.last_heartbeat_time) }}
        />
        {attemptError && (
          <div class="exception" data-testid="attempt-error">
            <strong>The agent raised {attemptError.type ?? 'an error'}</strong>:{' '}
            {attemptError.message ?? ''}
            {firstException && (
              <>
                {' '}
                <button
                  type="button"
                  class="link"
                  data-testid="goto-exception"
                  onClick={() => select(firstException.span_id)}
                >
                  show the failing span ({firstException.label})
                </button>
              </>
            )}
            {attemptError.stack && (
              <Collapsible title="stack">
                <pre>{attemptError.stack}</pre>
              </Collapsible>
            )}
          </div>
        )}
        {!attemptError && firstException && (
          <p>
            <button
              type="button"
              class="link"
              data-testid="goto-exception"
              onClick={() => select(firstException.span_id)}
            >
              This attempt recorded an exception: show it
            </button>
          </p>
        )}
      </Section>
      <Section title={`Trace (${waterfall.rows.length} spans)`}>
        <ErrorBox error={spans.error} />
        {waterfall.error && (
          <div class="error-box">Cannot build the span tree: {waterfall.error}</div>
        )}
        {!spans.data && !spans.error && <Loading what="spans" />}
        {spans.data && spans.data.length === 0 && (
          <p class="muted">This attempt recorded no spans.</p>
        )}
        <div class="trace-layout">
          <Waterfall rows={waterfall.rows} selected={selectedId} onSelect={select} />
          {selected ? (
            <SpanDetails row={selected} />
          ) : (
            <p class="muted">Select a span to see its details.</p>
          )}
        </div>
      </Section>
      <Section title="Triplets">
        {spans.data && <Triplets spans={spans.data} onSelect={select} />}
      </Section>
    </>
  );
}
