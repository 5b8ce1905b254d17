import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// scripts/check-unsupported-node.sh with the machine's own (older) Node: every package, imported on Node < 22.13,
// fails with ERR_ARCLIGHT_UNSUPPORTED_NODE naming the requirement, and so does the `arclight` command.
describe('on a Node.js older than 22.13', () => {
  it('every package and the arclight command refuse with one clear error', () => {
    const script = fileURLToPath(
      new URL('../../../scripts/check-unsupported-node.sh', import.meta.url),
    );
    const run = spawnSync('bash', [script], { encoding: 'utf8', timeout: 240_000 });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toContain("import '@arclight/store': ERR_ARCLIGHT_UNSUPPORTED_NODE");
    expect(output).toContain("import '@arclight/client': ERR_ARCLIGHT_UNSUPPORTED_NODE");
    expect(output).toMatch(/ok {3}arclight --help/);
  });
});
