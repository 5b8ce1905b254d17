/** A question and the points a good answer covers (what the judge checks). */
export interface QuestionTask {
  id: string;
  question: string;
  key_points: string[];
}

export const TASKS: readonly QuestionTask[] = [
  {
    id: 'sky',
    question: 'Explain why the sky appears blue using principles of light scattering in 100 words.',
    key_points: ['Rayleigh scattering', 'shorter wavelengths', 'air molecules', 'sunsets look red'],
  },
  {
    id: 'tides',
    question: 'Explain what causes ocean tides in 100 words.',
    key_points: ["the Moon's gravity", 'two bulges', 'Earth rotates', 'the Sun adds spring tides'],
  },
  {
    id: 'seasons',
    question: 'Explain why Earth has seasons in 100 words.',
    key_points: ['axial tilt', '23.5 degrees', 'angle of sunlight', 'not the distance to the Sun'],
  },
];

/** Upstream's three candidates (`examples/apo/apo_custom_algorithm.py`): the persona is all that differs. */
export const CANDIDATE_PROMPTS: readonly string[] = [
  'You are a helpful assistant. {any_question}',
  'You are a knowledgeable AI. {any_question}',
  'You are a friendly chatbot. {any_question}',
];
