import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One Calc-X style task (the fields of upstream's dataset). */
export interface MathProblem {
  id: string;
  question: string;
  /** A worked solution (here: the arithmetic expression); not shown to the agent. */
  chain: string;
  /** The ground truth. */
  result: string;
  source: string;
}

/** `tasks.json` beside this example's `package.json`. */
export const TASKS_FILE = fileURLToPath(new URL('../tasks.json', import.meta.url));

export function loadTasks(file: string = TASKS_FILE): MathProblem[] {
  const tasks = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(tasks)) throw new Error(`${file}: expected an array of tasks`);
  return tasks.map((task, i) => {
    const t = task as Partial<MathProblem>;
    for (const key of ['id', 'question', 'chain', 'result'] as const) {
      if (typeof t[key] !== 'string')
        throw new Error(`${file}: tasks[${i}].${key} must be a string`);
    }
    return { source: 'unknown', ...t } as MathProblem;
  });
}
