// Formatting of the benchmark's figures: the machine line and one table with ratio rows.
import { cpus, loadavg, totalmem } from 'node:os';

export function machineLine() {
  const cpu = cpus();
  const gib = (totalmem() / 1024 ** 3).toFixed(1);
  return `node ${process.version}, ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${gib} GiB RAM, ${process.platform} ${process.arch}`;
}

export function loadLine() {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');
}

const integer = (value) => Math.round(value).toLocaleString('en-US');

/**
 * columns: [{ key, title }]; rows: [{ label, cells: { [key]: { rate } | { error } | undefined } }];
 * ratioRows: [{ label, of, over }] where `of` and `over` are row labels.
 */
export function formatTable(columns, rows, ratioRows) {
  const cell = (result) => {
    if (!result) return '-';
    if (result.error) return 'error';
    return integer(result.rate);
  };
  const lines = [['target', ...columns.map((column) => column.title)]];
  for (const row of rows) lines.push([row.label, ...columns.map((c) => cell(row.cells[c.key]))]);
  const byLabel = new Map(rows.map((row) => [row.label, row]));
  for (const ratio of ratioRows) {
    const of = byLabel.get(ratio.of);
    const over = byLabel.get(ratio.over);
    const values = columns.map((column) => {
      const a = of?.cells[column.key];
      const b = over?.cells[column.key];
      if (!a?.rate || !b?.rate) return '-';
      return `${(a.rate / b.rate).toFixed(1)}×`;
    });
    lines.push([ratio.label, ...values]);
  }
  const widths = lines[0].map((_, i) => Math.max(...lines.map((line) => line[i].length)));
  const render = (line) =>
    line.map((text, i) => (i === 0 ? text.padEnd(widths[i]) : text.padStart(widths[i]))).join('  ');
  const out = lines.map(render);
  out.splice(1, 0, widths.map((width) => '-'.repeat(width)).join('  '));
  if (ratioRows.length > 0) out.splice(rows.length + 2, 0, out[1]);
  return out.join('\n');
}
