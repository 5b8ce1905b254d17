import { useMemo } from 'preact/hooks';
import type uPlot from 'uplot';
import { loadRewards } from '../api/rewards.js';
import { Chart } from '../components/chart.js';
import { ErrorBox, Loading, Section, Stat } from '../components/ui.js';
import { useApp } from '../context.js';
import { formatNumber } from '../model/format.js';
import { computeProgress } from '../model/progress.js';
import { href } from '../router.js';
import { useData } from '../use-data.js';

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);

export function ProgressPage() {
  const { api } = useApp();
  const data = useData(async () => {
    const { items, total } = await api.rollouts();
    const rewards = await loadRewards(api, items);
    return { progress: computeProgress(items, rewards), total, loaded: items.length };
  }, []);
  const p = data.data?.progress;

  const rewardData = useMemo((): uPlot.AlignedData | null => {
    if (!p || p.points.length === 0) return null;
    return [
      p.points.map((x) => x.time),
      p.points.map((x) => x.reward),
      p.rolling.map((x) => x.mean),
    ];
  }, [p]);
  const versionData = useMemo((): uPlot.AlignedData | null => {
    const rows = p?.versions.filter((v) => v.count > 0) ?? [];
    if (rows.length === 0) return null;
    return [
      rows.map((_, i) => i),
      rows.map((v) => v.mean),
      rows.map((v) => (v.mean !== null && v.std !== null ? v.mean + v.std : null)),
      rows.map((v) => (v.mean !== null && v.std !== null ? v.mean - v.std : null)),
    ];
  }, [p]);
  const versionNames = p?.versions.filter((v) => v.count > 0).map((v) => v.resources_id) ?? [];
  const rateData = useMemo((): uPlot.AlignedData | null => {
    if (!p || p.buckets.length === 0) return null;
    return [
      p.buckets.map((b) => b.time),
      p.buckets.map((b) => b.throughput),
      p.buckets.map((b) => b.failure_rate),
    ];
  }, [p]);

  return (
    <>
      <Section title="Training progress">
        <ErrorBox error={data.error} />
        {!p && !data.error && <Loading what="rollouts and rewards" />}
        {p && (
          <div class="stats" data-testid="progress-totals">
            <Stat label="rollouts" value={String(p.totals.rollouts)} />
            <Stat label="finished" value={String(p.totals.finished)} />
            <Stat label="running" value={String(p.totals.running)} />
            <Stat label="queued" value={String(p.totals.queued)} />
            <Stat
              label="failure rate"
              value={pct(p.totals.failure_rate)}
              hint={`${p.totals.failed} failed`}
            />
            <Stat label="rollouts / min" value={formatNumber(p.totals.throughput, 1)} />
            <Stat
              label="mean reward"
              value={formatNumber(p.totals.reward.mean)}
              hint={`over ${p.totals.reward.count} rewarded rollouts`}
            />
          </div>
        )}
        {data.data && data.data.loaded < data.data.total && (
          <p class="muted">
            Computed over the newest {data.data.loaded} of {data.data.total} rollouts.
          </p>
        )}
      </Section>
      {p && (
        <Section title="Reward over time">
          {rewardData ? (
            <Chart
              title="Reward per finished rollout, and the mean of the last 20"
              testId="chart-reward"
              data={rewardData}
              series={[
                {},
                {
                  label: 'reward',
                  stroke: 'transparent',
                  points: { show: true, size: 5, stroke: '#4c78a8', fill: '#4c78a8' },
                },
                { label: 'rolling mean', stroke: '#f58518', width: 2, points: { show: false } },
              ]}
            />
          ) : (
            <p class="muted">No finished rollout carries a reward yet.</p>
          )}
        </Section>
      )}
      {p && (
        <Section title="Reward per resources version">
          {versionData && (
            <Chart
              title="Mean reward ± one standard deviation per version (in creation order)"
              testId="chart-versions"
              data={versionData}
              scales={{ x: { time: false } }}
              axes={[
                {
                  // One tick per version, labelled with its id.
                  splits: () => versionNames.map((_, i) => i),
                  values: (_u, ticks) => ticks.map((t) => versionNames[t] ?? ''),
                },
                {},
              ]}
              series={[
                { label: 'version', value: (_u, v) => (v === null ? '' : (versionNames[v] ?? '')) },
                { label: 'mean', stroke: '#4c78a8', width: 2, points: { show: true, size: 7 } },
                { label: '+1 sd', stroke: '#9ecae9', dash: [4, 4] },
                { label: '−1 sd', stroke: '#9ecae9', dash: [4, 4] },
              ]}
            />
          )}
          <table class="table" data-testid="versions-table">
            <thead>
              <tr>
                <th>resources</th>
                <th>rewarded rollouts</th>
                <th>mean</th>
                <th>std</th>
                <th>min</th>
                <th>max</th>
                <th>val mean (n)</th>
              </tr>
            </thead>
            <tbody>
              {p.versions.map((v) => (
                <tr key={v.resources_id}>
                  <td>
                    <a href={href(['rollouts'], { resources: v.resources_id })}>{v.resources_id}</a>
                  </td>
                  <td>{v.count}</td>
                  <td>{formatNumber(v.mean)}</td>
                  <td>{formatNumber(v.std)}</td>
                  <td>{formatNumber(v.min)}</td>
                  <td>{formatNumber(v.max)}</td>
                  <td>
                    {formatNumber(v.val.mean)} ({v.val.count})
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>
      )}
      {p && rateData && (
        <Section title="Throughput and failures">
          <Chart
            title={`Finished rollouts per minute and failure rate (${p.bucket_seconds} s buckets)`}
            testId="chart-throughput"
            data={rateData}
            scales={{ x: { time: true }, rate: { range: [0, 1] } }}
            axes={[
              {},
              { label: 'rollouts / min' },
              { side: 1, scale: 'rate', label: 'failure rate', grid: { show: false } },
            ]}
            series={[
              {},
              {
                label: 'rollouts / min',
                stroke: '#54a24b',
                width: 2,
                fill: 'rgba(84,162,75,0.15)',
              },
              { label: 'failure rate', stroke: '#e45756', width: 2, scale: 'rate' },
            ]}
          />
        </Section>
      )}
    </>
  );
}
