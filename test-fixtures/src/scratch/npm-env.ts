/** npm's network settings, kept for the child npm and pnpm (e.g. `npm_config_registry=http://127.0.0.1:9`). */
const NETWORK_CONFIG =
  /^npm_config_((@[^:]+:)?registry|https?_proxy|proxy|noproxy|cafile|ca|strict_ssl)$/i;

/**
 * The environment for npm, pnpm and app processes started by the scratch harness: the caller's, without the
 * `npm_*` variables an enclosing `npm run`/`npm test -w …` sets (they would make the child npm act on the
 * enclosing workspace) except the registry's address, proxy and certificate settings, plus `extra`.
 *
 * And `NODE_USE_SYSTEM_CA=1` (unless set): Node trusts the certificate authorities the OS trusts, as curl and git
 * do. Where the registry is reached through a TLS-intercepting proxy whose CA is in the OS store only, npm and pnpm
 * on the Node 24 of `node_modules/.bin` see SELF_SIGNED_CERT_IN_CHAIN otherwise whenever `NODE_EXTRA_CA_CERTS` does
 * not reach them (turbo passes on only the variables turbo.json names; other test runners may strip it too), as npm
 * on that Node looks for its global npmrc (`cafile=`) under `node_modules/node/etc/`, not the system's.
 */
export function npmEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NODE_USE_SYSTEM_CA: '1' };
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== 'INIT_CWD') env[key] = value;
    else if (NETWORK_CONFIG.test(key)) env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}
