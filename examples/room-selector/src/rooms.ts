// The room database and tool live with the simulated model in @arclight/test-fixtures (shared by examples).
export {
  getRoomsAndAvailability,
  ROOM_TOOL,
  ROOM_TOOL_NAME,
  ROOMS,
  type Room,
  type RoomStatus,
} from '@arclight/test-fixtures';
