/**
 * The environment for npm and app processes started by the scratch harness: the caller's, without the `npm_*`
 * variables an enclosing `npm run`/`npm test -w …` sets (they would make the child npm act on the
 * enclosing workspace), plus `extra`.
 */
export function npmEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== 'INIT_CWD') env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}
