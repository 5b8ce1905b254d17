// Prints the gzipped size of the built dashboard (JavaScript + CSS + HTML) and fails the build when it is over
// the budget stated in the README (DASHBOARD_BUNDLE_BUDGET_BYTES in src/index.ts, built to dist/index.js).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DASHBOARD_BUNDLE_BUDGET_BYTES } from '../dist/index.js';

export function bundleSize(dir) {
  const files = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(js|css|html)$/.test(entry.name)) files.push(path);
    }
  };
  walk(dir);
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: files.length, raw, gzip };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = join(import.meta.dirname, '..', 'dist', 'app');
  const { raw, gzip } = bundleSize(dir);
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const budget = DASHBOARD_BUNDLE_BUDGET_BYTES;
  console.log(
    `dashboard bundle: ${kib(gzip)} gzipped (${kib(raw)} raw), budget ${kib(budget)} gzipped`,
  );
  if (gzip > budget) {
    console.error(
      `dashboard bundle is over its budget by ${kib(gzip - budget)}: trim dependencies or raise the budget in src/index.ts and the README`,
    );
    process.exit(1);
  }
}
