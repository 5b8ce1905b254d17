import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** One task: a question over Chinook and the gold query whose result set is the right answer. */
export interface SqlTask {
  id: string;
  question: string;
  gold: string;
}

/** The example's folder (this file lives in `src/` or `dist/`). */
export const EXAMPLE_DIR = resolve(import.meta.dirname, '..');
/** The repository root (`examples/sql-agent/../..`). */
export const REPO_ROOT = resolve(EXAMPLE_DIR, '../..');
/** Chinook, shipped beside the repository: `../shared/fixtures/chinook.db` from the repo root. */
export const DEFAULT_DB_PATH = resolve(REPO_ROOT, '../shared/fixtures/chinook.db');

export function loadTasks(path = resolve(EXAMPLE_DIR, 'tasks.json')): SqlTask[] {
  return JSON.parse(readFileSync(path, 'utf8')) as SqlTask[];
}
