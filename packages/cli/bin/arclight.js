#!/usr/bin/env node
// The `arclight` (and `agl`) command. This file is committed (not built) so that npm links the command on the
// first `npm install` of a fresh clone, before `dist/` exists; it runs the built CLI.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(cli)) {
  console.error(
    'arclight: @arclight/cli is not built yet (no dist/bin.js). In the Arclight repository, run `npm run build` ' +
      '(or `npm start`) first.',
  );
  process.exit(1);
}
try {
  await import('@arclight/core/supported-node');
} catch (error) {
  if (error?.code !== 'ERR_ARCLIGHT_UNSUPPORTED_NODE') throw error;
  console.error(`arclight: ${error.message}`);
  process.exit(1);
}
await import(cli.href);
