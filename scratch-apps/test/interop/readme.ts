import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { WORKSPACE } from '@arclight/test-fixtures/scratch';

export interface CodeBlock {
  lang: string;
  code: string;
}

/** The fenced code blocks of the root README's section `## <title>`, in order. */
export function readmeBlocks(title: string): CodeBlock[] {
  const readme = readFileSync(
    fileURLToPath(new URL('../../../README.md', import.meta.url)),
    'utf8',
  );
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README.md has no section '## ${title}'`);
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({
    lang: m[1] ?? '',
    code: m[2] ?? '',
  }));
}

/** The lines of `sh` blocks that start with `prefix` (e.g. `npm install`, `npx arclight`). */
export function shellLines(blocks: CodeBlock[], prefix: string): string[] {
  return blocks
    .filter((b) => b.lang === 'sh')
    .flatMap((b) => b.code.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith(prefix));
}

/** The packages of an `npm install a b c` line as an app's dependencies: `@arclight/*` from their tarballs. */
export function installDependencies(line: string): Record<string, string> {
  return Object.fromEntries(
    line
      .slice('npm install '.length)
      .split(/\s+/)
      .map((name) => [name, name.startsWith('@arclight/') ? WORKSPACE : 'latest']),
  );
}
