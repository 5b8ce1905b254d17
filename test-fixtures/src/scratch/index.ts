export { floorNodeVersion, nodeReleaseBin } from './node-releases.js';
export { npmEnv } from './npm-env.js';
export {
  type RegistryPackage,
  type RegistryPackageOptions,
  registryPackageDir,
} from './registry-package.js';
export {
  createScratchApp,
  PNPM_VERSION,
  type RunOptions,
  type RunResult,
  type ScratchApp,
  type ScratchAppOptions,
  WORKSPACE,
} from './scratch-app.js';
export {
  arclightCacheDir,
  type PackOptions,
  packWorkspacePackages,
  type WorkspacePacks,
} from './workspace-packs.js';
