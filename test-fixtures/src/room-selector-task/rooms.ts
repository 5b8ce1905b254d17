/** The room-selector agent's room database and its one tool (upstream `examples/apo/room_selector.py`). */
import { ROOM_TOOL_NAME } from '../responders/room-selector.js';

export interface Room {
  id: string;
  capacity: number;
  equipment: string[];
  accessible: boolean;
  distance_m: number;
  /** `[date, "HH:MM", minutes]` bookings. */
  booked: Array<[string, string, number]>;
}

export interface RoomStatus extends Room {
  /** Free for the whole requested slot. */
  free: boolean;
}

/** Seven rooms; several tasks have more than one plausible fit. */
export const ROOMS: readonly Room[] = [
  {
    id: 'Orion',
    capacity: 4,
    equipment: ['tv', 'whiteboard'],
    accessible: true,
    distance_m: 12,
    booked: [
      ['2025-10-13', '10:00', 60],
      ['2025-10-13', '15:00', 30],
    ],
  },
  {
    id: 'Lyra',
    capacity: 10,
    equipment: ['projector', 'whiteboard', 'confphone'],
    accessible: true,
    distance_m: 30,
    booked: [
      ['2025-10-13', '09:30', 30],
      ['2025-10-13', '11:00', 60],
    ],
  },
  {
    id: 'Vega',
    capacity: 6,
    equipment: ['tv'],
    accessible: false,
    distance_m: 22,
    booked: [['2025-10-13', '14:00', 60]],
  },
  {
    id: 'Nova',
    capacity: 12,
    equipment: ['ledwall', 'whiteboard', 'confphone'],
    accessible: true,
    distance_m: 45,
    booked: [],
  },
  {
    id: 'Quark',
    capacity: 8,
    equipment: ['projector', 'whiteboard'],
    accessible: false,
    distance_m: 18,
    booked: [['2025-10-13', '10:30', 30]],
  },
  {
    id: 'Atlas',
    capacity: 6,
    equipment: ['projector', 'whiteboard'],
    accessible: true,
    distance_m: 10,
    booked: [
      ['2025-10-13', '09:00', 30],
      ['2025-10-13', '13:30', 30],
    ],
  },
  {
    id: 'Pulse',
    capacity: 8,
    equipment: ['tv', 'whiteboard', 'confphone'],
    accessible: true,
    distance_m: 8,
    booked: [['2025-10-13', '16:30', 30]],
  },
];

/** The tool as the Chat Completions API takes it. */
export const ROOM_TOOL = {
  type: 'function' as const,
  function: {
    name: ROOM_TOOL_NAME,
    description:
      'Return meeting rooms with capacity, equipment, accessibility, distance, and booked time slots.',
    parameters: {
      type: 'object',
      properties: {
        date: { type: 'string', description: 'YYYY-MM-DD' },
        time: { type: 'string', description: 'HH:MM 24h local' },
        duration_min: { type: 'integer', description: 'Meeting duration minutes' },
      },
      required: ['date', 'time', 'duration_min'],
    },
  },
};

const minutes = (hhmm: string): number => {
  const match = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  if (!match) throw new Error(`time: expected HH:MM, got ${JSON.stringify(hhmm)}`);
  return Number(match[1]) * 60 + Number(match[2]);
};

function overlaps(start: string, duration: number, otherStart: string, otherDuration: number) {
  const a0 = minutes(start);
  const b0 = minutes(otherStart);
  return Math.max(a0, b0) < Math.min(a0 + duration, b0 + otherDuration);
}

/** The tool: every room with a `free` flag for the slot. */
export function getRoomsAndAvailability(
  date: string,
  time: string,
  durationMin: number,
): { rooms: RoomStatus[] } {
  if (!Number.isFinite(durationMin) || durationMin <= 0) {
    throw new Error(`duration_min: expected a positive number, got ${String(durationMin)}`);
  }
  return {
    rooms: ROOMS.map((room) => ({
      ...room,
      free: room.booked.every(
        ([bookedDate, bookedTime, bookedMinutes]) =>
          bookedDate !== date || !overlaps(time, durationMin, bookedTime, bookedMinutes),
      ),
    })),
  };
}
