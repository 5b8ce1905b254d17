// The task: answer a weather question by calling the `get_weather` tool with the city the user names.
// Training and held-out tasks use different cities, so the evaluation measures a skill, not memorised cities.

export interface WeatherTask {
  question: string;
  /** The city the tool call must name. */
  city: string;
}

const TRAIN_CITIES = [
  'Paris',
  'Berlin',
  'Madrid',
  'Rome',
  'Vienna',
  'Prague',
  'Warsaw',
  'Lisbon',
  'Dublin',
  'Oslo',
  'Helsinki',
  'Athens',
  'Cairo',
  'Nairobi',
  'Lagos',
  'Tokyo',
  'Seoul',
  'Beijing',
  'Delhi',
  'Bangkok',
  'Sydney',
  'Toronto',
  'Chicago',
  'Lima',
];
const HELD_OUT_CITIES = [
  'Amsterdam',
  'Brussels',
  'Stockholm',
  'Budapest',
  'Istanbul',
  'Dubai',
  'Mumbai',
  'Singapore',
  'Manila',
  'Melbourne',
  'Boston',
  'Santiago',
];
const PHRASINGS = [
  'What is the weather in {city}?',
  'Is it raining in {city} right now?',
  'How warm is it in {city} today?',
  'Tell me the current weather for {city}.',
];

function tasksFor(cities: readonly string[], offset: number): WeatherTask[] {
  return cities.map((city, i) => ({
    city,
    question: PHRASINGS[(i + offset) % PHRASINGS.length]!.replace('{city}', city),
  }));
}

/** 24 training tasks (the policy's data) and 12 held-out tasks (evaluation only). */
export function weatherTasks(): { train: WeatherTask[]; heldOut: WeatherTask[] } {
  return { train: tasksFor(TRAIN_CITIES, 0), heldOut: tasksFor(HELD_OUT_CITIES, 1) };
}
