// `npm run check:deps`: the package dependency graph has no edge from a lower step of the data path to a
// higher one. Every workspace package sits on a step (STEPS below, lowest first); a package may depend on
// packages of lower steps only. Checked: the @arclight/* names in dependencies, peerDependencies and
// optionalDependencies, and every `@arclight/*` import in src/ (so an undeclared import is caught too).
// devDependencies are not checked: a package's tests may drive it with higher packages (an algorithm's tests
// run it under the trainer). Exits 1 naming each offending edge and the file that makes it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Lowest first. The map CONTRIBUTING.md explains; a new package must be placed here. */
const STEPS = [
  ['core'], // wire data model, schemas, span readers, contracts (LightningStore, Adapter, Algorithm, Logger)
  ['store'], // LightningStore implementations (memory, SQLite), conformance suite
  ['store-postgres', 'server', 'client', 'otel', 'instrumentation'], // more stores; HTTP wire; the tracer that ships to a store; the instrumentations' toolkit
  ['openai', 'langchain', 'openai-agents', 'ai-sdk', 'instrumentation-*', 'adapter', 'dashboard'],
  ['export', 'runner', 'gateway'], // training files from triplets; rollout workers; the LLM gateway
  ['algorithms'], // APO, Baseline: Algorithm implementations over the store
  ['trainer'], // runs an Algorithm against runners (in-process or client-server)
  ['cli', 'test-fixtures'], // the `arclight` command; the fixture LLM server and test harnesses
  ['examples/*', 'scratch-apps'],
];

const root = join(import.meta.dirname, '..');
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dirs = workspaces.flatMap((pattern) => {
  const base = pattern.replace(/\/\*$/, '');
  if (base === pattern) return [pattern];
  return readdirSync(join(root, base))
    .map((name) => `${base}/${name}`)
    .filter((dir) => statSync(join(root, dir, 'package.json'), { throwIfNoEntry: false }));
});

/** The step of a workspace directory (`packages/otel` → 2), or -1. */
function stepOf(dir) {
  const short = dir.replace(/^packages\//, '');
  return STEPS.findIndex((names) =>
    names.some((name) =>
      name.endsWith('*') ? short.startsWith(name.slice(0, -1)) : short === name,
    ),
  );
}

const byName = new Map();
for (const dir of dirs) {
  const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  byName.set(manifest.name, { dir, manifest });
}

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(entry.name)) yield path;
  }
}

const problems = [];
for (const [name, { dir, manifest }] of byName) {
  const step = stepOf(dir);
  if (step === -1) {
    problems.push(
      `${dir} is on no step of the data path: add it to STEPS in scripts/check-deps.mjs`,
    );
    continue;
  }
  const edges = new Map(); // dependency name → where it is declared or imported
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const dep of Object.keys(manifest[field] ?? {})) {
      if (byName.has(dep)) edges.set(dep, `${dir}/package.json (${field})`);
    }
  }
  const src = join(root, dir, 'src');
  if (statSync(src, { throwIfNoEntry: false })?.isDirectory()) {
    for (const file of sourceFiles(src)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](@arclight\/[a-z0-9-]+)/g)) {
        const dep = match[1];
        if (byName.has(dep) && !edges.has(dep)) edges.set(dep, relative(root, file));
      }
    }
  }
  for (const [dep, where] of edges) {
    if (dep === name) continue;
    const depDir = byName.get(dep).dir;
    const depStep = stepOf(depDir);
    if (depStep >= step) {
      problems.push(
        `${name} (step ${step}) depends on ${dep} (step ${depStep}), a step that is not lower: ${where}`,
      );
    }
  }
}

if (problems.length > 0) {
  console.error(`check-deps: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  console.error('The map of steps and how to fix an upward edge: CONTRIBUTING.md');
  process.exit(1);
}
console.log(`check-deps: ${byName.size} packages, no edge from a lower step to a higher one`);
