// The simulated room-selector world (Agent Lightning's APO tutorial task): the rules a prompt can state, the
// parser of a booking request, the rule-restricted solver that plays the "model", and the critic's diagnosis
// of a wrong choice. Pure functions; the responders in room-selector.ts wire them to the fixture server.

export type RoomRuleId =
  | 'capacity'
  | 'equipment'
  | 'availability'
  | 'accessibility'
  | 'no_room'
  | 'smallest_fit'
  | 'fewest_extras'
  | 'nearest';

export interface RoomRule {
  id: RoomRuleId;
  /** `constraint`: filters rooms; `fallback`: what to answer when none is left; `preference`: tie-break. */
  kind: 'constraint' | 'fallback' | 'preference';
  /** The sentence the simulated prompt editor adds to a prompt template (no braces: templates are f-strings). */
  statement: string;
  /** What the simulated model recognises in a prompt as stating the rule. */
  pattern: RegExp;
}

/** Every rule, in the order the simulated critic ranks them when they explain equally many failures. */
export const ROOM_RULES: readonly RoomRule[] = [
  {
    id: 'capacity',
    kind: 'constraint',
    statement: 'Only choose a room whose capacity is at least the number of attendees.',
    pattern: /\bcapacity\b|\benough seats\b/i,
  },
  {
    id: 'equipment',
    kind: 'constraint',
    statement: 'The room must have every piece of equipment listed under Needs.',
    pattern: /\bequipment\b/i,
  },
  {
    id: 'availability',
    kind: 'constraint',
    statement:
      'The room must be free for the whole meeting: skip rooms whose bookings overlap the requested time.',
    pattern: /\bfree\b|\bavailab|\boverlap|\bbooked\b|\bbookings?\b/i,
  },
  {
    id: 'accessibility',
    kind: 'constraint',
    statement: 'When accessibility is required, choose only an accessible room.',
    pattern: /\baccessibility\b|\bwheelchair\b/i,
  },
  {
    id: 'no_room',
    kind: 'fallback',
    statement: 'If no room satisfies every rule, answer exactly "No Room".',
    pattern: /\bno room\b/i,
  },
  {
    id: 'smallest_fit',
    kind: 'preference',
    statement: 'Among suitable rooms, prefer the smallest one (the fewest spare seats).',
    pattern: /\bsmallest\b|\bspare seats\b/i,
  },
  {
    id: 'fewest_extras',
    kind: 'preference',
    statement: 'Then prefer the room with the fewest extra devices beyond what is needed.',
    pattern: /\bextra devices\b|\bfewest extras?\b/i,
  },
  {
    id: 'nearest',
    kind: 'preference',
    statement: 'Then prefer the nearest room (shortest distance).',
    pattern: /\bnearest\b|\bdistance\b/i,
  },
];

export const NO_ROOM = 'No Room';

/** A booking request, as the agent's prompt states it. */
export interface RoomRequest {
  date: string;
  time: string;
  duration_min: number;
  attendees: number;
  needs: string[];
  accessible_required: boolean;
}

/** A room as the agent's `get_rooms_and_availability` tool reports it (upstream's fields). */
export interface RoomInfo {
  id: string;
  capacity: number;
  equipment: string[];
  accessible: boolean;
  distance_m: number;
  /** `[date, "HH:MM", minutes]` bookings. */
  booked: Array<[string, string, number]>;
  /** Free for the requested slot (computed from `booked` when absent). */
  free?: boolean;
}

/** The rules a prompt states, as the simulated model reads them. */
export function rulesStatedIn(text: string): Set<RoomRuleId> {
  return new Set(ROOM_RULES.filter((rule) => rule.pattern.test(text)).map((rule) => rule.id));
}

/**
 * Reads a request written like upstream's prompt: "… on 2025-10-13 at 10:00 for 30 minutes, 6 attendees.
 * Needs: projector, whiteboard. Accessible required: yes". Null when the date, time, duration or attendee count
 * is missing.
 */
export function parseRoomRequest(text: string): RoomRequest | null {
  const when = /on (\d{4}-\d{2}-\d{2}) at (\d{1,2}:\d{2}) for (\d+) min/i.exec(text);
  const people = /(\d+) attendees/i.exec(text);
  if (!when || !people) return null;
  const needsText = /needs:\s*([^.\n]*)/i.exec(text)?.[1] ?? '';
  const needs = needsText
    .split(/,|;|\band\b/)
    .map((item) =>
      item
        .replace(/[[\]'"]/g, '')
        .trim()
        .toLowerCase(),
    )
    .filter((item) => item !== '' && item !== 'none');
  const access = /accessible required:\s*(\w+)/i.exec(text)?.[1]?.toLowerCase();
  return {
    date: when[1]!,
    time: when[2]!.padStart(5, '0'),
    duration_min: Number(when[3]),
    attendees: Number(people[1]),
    needs,
    accessible_required: access === 'yes' || access === 'true',
  };
}

const minutes = (hhmm: string): number => {
  const [h, m] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
};

/** Whether the room is free for the request's slot (its `free` flag, else its bookings). */
export function isFree(room: RoomInfo, request: RoomRequest): boolean {
  if (typeof room.free === 'boolean') return room.free;
  const start = minutes(request.time);
  const end = start + request.duration_min;
  return room.booked.every(([date, time, duration]) => {
    if (date !== request.date) return true;
    const bookedStart = minutes(time);
    return Math.max(start, bookedStart) >= Math.min(end, bookedStart + duration);
  });
}

function meets(rule: RoomRuleId, room: RoomInfo, request: RoomRequest): boolean {
  switch (rule) {
    case 'capacity':
      return room.capacity >= request.attendees;
    case 'equipment':
      return request.needs.every((need) => room.equipment.includes(need));
    case 'availability':
      return isFree(room, request);
    case 'accessibility':
      return room.accessible || !request.accessible_required;
    default:
      return true;
  }
}

const CONSTRAINTS = ROOM_RULES.filter((r) => r.kind === 'constraint').map((r) => r.id);
const PREFERENCES = ROOM_RULES.filter((r) => r.kind === 'preference').map((r) => r.id);

/** The hard constraints the room breaks for this request. */
export function violatedConstraints(room: RoomInfo, request: RoomRequest): RoomRuleId[] {
  return CONSTRAINTS.filter((rule) => !meets(rule, room, request));
}

function preferenceKey(rule: RoomRuleId, room: RoomInfo, request: RoomRequest): number {
  if (rule === 'smallest_fit') return room.capacity - request.attendees;
  if (rule === 'fewest_extras') return room.equipment.length - request.needs.length;
  return room.distance_m;
}

function best(
  rooms: readonly RoomInfo[],
  request: RoomRequest,
  preferences: RoomRuleId[],
): RoomInfo {
  let winner = rooms[0]!;
  for (const room of rooms.slice(1)) {
    for (const rule of preferences) {
      const diff = preferenceKey(rule, room, request) - preferenceKey(rule, winner, request);
      if (diff < 0) winner = room;
      if (diff !== 0) break;
    }
  }
  return winner;
}

/**
 * The simulated model's answer: the rooms passing the constraints the prompt states, ranked by the
 * preferences it states (else the first one listed). When none passes it answers "No Room" only if the prompt
 * says so — otherwise, like a weak model, it falls back to the first room listed. With every rule stated this
 * is the oracle of upstream's task (it reproduces all 57 expected choices).
 */
export function chooseRoom(
  rooms: readonly RoomInfo[],
  request: RoomRequest,
  rules: ReadonlySet<RoomRuleId>,
): string {
  if (rooms.length === 0) return NO_ROOM;
  const stated = CONSTRAINTS.filter((rule) => rules.has(rule));
  const candidates = rooms.filter((room) => stated.every((rule) => meets(rule, room, request)));
  if (candidates.length === 0) return rules.has('no_room') ? NO_ROOM : rooms[0]!.id;
  return best(
    candidates,
    request,
    PREFERENCES.filter((rule) => rules.has(rule)),
  ).id;
}

/**
 * The critic's diagnosis of a wrong answer: the rules missing from the prompt that explain it. A chosen room
 * that breaks constraints → those the prompt does not state (all stated: the prompt lacks the "No Room"
 * fallback); a room that meets every constraint but is not the best → the first preference it loses on.
 * "No Room" or an unreadable answer → no diagnosis.
 */
export function diagnose(
  answer: string,
  rooms: readonly RoomInfo[],
  request: RoomRequest,
  stated: ReadonlySet<RoomRuleId>,
): RoomRuleId[] {
  const chosen = rooms.find((room) => room.id.toLowerCase() === answer.trim().toLowerCase());
  if (!chosen) return [];
  const broken = violatedConstraints(chosen, request);
  if (broken.length > 0) {
    const missing = broken.filter((rule) => !stated.has(rule));
    if (missing.length > 0) return missing;
    return stated.has('no_room') ? [] : ['no_room'];
  }
  const feasible = rooms.filter((room) => violatedConstraints(room, request).length === 0);
  const oracle = best(feasible, request, PREFERENCES);
  for (const rule of PREFERENCES) {
    const diff = preferenceKey(rule, oracle, request) - preferenceKey(rule, chosen, request);
    if (diff !== 0) return diff < 0 && !stated.has(rule) ? [rule] : [];
  }
  return [];
}

/** The rule with this id. */
export function roomRule(id: RoomRuleId): RoomRule {
  return ROOM_RULES.find((rule) => rule.id === id)!;
}
