import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartProps {
  title: string;
  data: uPlot.AlignedData;
  series: uPlot.Series[];
  axes?: uPlot.Axis[];
  scales?: uPlot.Scales;
  height?: number;
  testId?: string;
}

const cssVar = (name: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/** A uPlot chart that fills its container's width and redraws when the data or the theme change. */
export function Chart({ title, data, series, axes, scales, height = 220, testId }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const theme = document.documentElement.dataset.theme;
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const fg = cssVar('--fg-muted') || '#666';
    const grid = cssVar('--border') || '#ddd';
    const themed = (axis: uPlot.Axis): uPlot.Axis => ({
      stroke: fg,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
      ...axis,
    });
    const opts: uPlot.Options = {
      title,
      width: Math.max(300, el.clientWidth),
      height,
      series,
      axes: (axes ?? [{}, {}]).map(themed),
      scales: scales ?? { x: { time: true } },
      legend: { live: true },
      cursor: { drag: { x: true, y: false } },
    };
    plot.current = new uPlot(opts, data, el);
    const resize = new ResizeObserver(() =>
      plot.current?.setSize({ width: Math.max(300, el.clientWidth), height }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, [title, series.length, theme, height]);
  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);
  return <div class="chart" ref={box} data-testid={testId} />;
}
