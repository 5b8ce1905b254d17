import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface RoomRequirement {
  date: string;
  time: string;
  duration_min: number;
  attendees: number;
  needs: string[];
  accessible_required: boolean;
}

export interface RoomSelectionTask {
  id: string;
  task_input: RoomRequirement;
  /** A room id or "No Room". */
  expected_choice: string;
}

/** Upstream's 57 tasks (`examples/apo/room_tasks.jsonl`, MIT License, Copyright (c) Microsoft Corporation). */
export const TASKS_FILE = fileURLToPath(new URL('../../data/room-tasks.jsonl', import.meta.url));

export function loadRoomTasks(path: string = TASKS_FILE): RoomSelectionTask[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const task = JSON.parse(line) as RoomSelectionTask;
      if (typeof task.expected_choice !== 'string' || typeof task.task_input !== 'object') {
        throw new Error(`${path}:${i + 1}: expected {id, task_input, expected_choice}`);
      }
      return task;
    });
}

/** As upstream: the first half trains (critiques), the second half validates. */
export function splitTrainVal(tasks: readonly RoomSelectionTask[]): {
  train: RoomSelectionTask[];
  val: RoomSelectionTask[];
} {
  const half = Math.floor(tasks.length / 2);
  return { train: tasks.slice(0, half), val: tasks.slice(half) };
}
