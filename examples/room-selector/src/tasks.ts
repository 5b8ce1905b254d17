// Upstream's 57 tasks live in @arclight/test-fixtures (`data/room-tasks.jsonl`), shared by examples.
export {
  loadRoomTasks,
  type RoomRequirement,
  type RoomSelectionTask,
  splitTrainVal,
  TASKS_FILE,
} from '@arclight/test-fixtures';
