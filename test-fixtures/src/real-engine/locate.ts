// Where the real engine (node-llama-cpp) and model (SmolLM2-135M-Instruct GGUF) live: fetched once per machine by
// scripts/real-model.sh into ~/.cache/arclight/real-model, outside the clone and outside the npm workspace (the
// engine's 83 MB CPU build is installed there on its own, without the package's ~600 MB of GPU builds).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { findRepoRoot } from '../recordings.js';

export interface RealModelFiles {
  /** A folder whose node_modules holds node-llama-cpp (and its @huggingface/jinja). */
  engine_dir: string;
  /** The GGUF file. */
  model_path: string;
}

/**
 * The engine and model paths: `ARCLIGHT_REAL_ENGINE_DIR` and `ARCLIGHT_REAL_MODEL_PATH` when both are set, otherwise
 * whatever `scripts/real-model.sh` prints after fetching them (about 180 MB on first use, then a no-op).
 */
export function ensureRealModel(): RealModelFiles {
  const engine = process.env.ARCLIGHT_REAL_ENGINE_DIR;
  const model = process.env.ARCLIGHT_REAL_MODEL_PATH;
  if (engine && model) return { engine_dir: engine, model_path: model };
  const root = findRepoRoot();
  if (!root) {
    throw new Error(
      'real-engine: cannot find the Arclight repository to run scripts/real-model.sh; set ARCLIGHT_REAL_ENGINE_DIR and ARCLIGHT_REAL_MODEL_PATH',
    );
  }
  const out = execFileSync('bash', [join(root, 'scripts', 'real-model.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = out.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as RealModelFiles;
}
