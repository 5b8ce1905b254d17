/** A two-hop question: the answer is on the second page, whose subject the first page names. */
export interface ResearchTask {
  id: string;
  question: string;
  answer: string;
  /** What a careful reader searches for, in order, and the page it then opens. */
  hops: readonly { query: string; page: string }[];
  /** What a hasty reader answers after the first page (a plausible but wrong guess). */
  hasty_answer: string;
}

export const TASKS: readonly ResearchTask[] = [
  {
    id: 'tower-architect',
    question: 'In which country was the architect of the Lumen Tower born?',
    answer: 'Ghana',
    hops: [
      { query: 'Lumen Tower architect', page: 'lumen-tower' },
      { query: 'Ada Okafor', page: 'ada-okafor' },
    ],
    hasty_answer: 'Port Calder',
  },
  {
    id: 'sparrows-river',
    question: 'Which river flows through the home city of the Harbor Sparrows?',
    answer: 'Ardent',
    hops: [
      { query: 'Harbor Sparrows city', page: 'harbor-sparrows' },
      { query: 'Vélmont river', page: 'velmont' },
    ],
    hasty_answer: 'Vélmont',
  },
  {
    id: 'orchard-instrument',
    question: 'Which instrument did the composer of the opera Glass Orchard play?',
    answer: 'cello',
    hops: [
      { query: 'Glass Orchard opera composer', page: 'glass-orchard' },
      { query: 'Tomas Rijk', page: 'tomas-rijk' },
    ],
    hasty_answer: 'glass harmonica',
  },
  {
    id: 'kestrel-university',
    question:
      'In which year was the university attended by the inventor of the Kestrel engine founded?',
    answer: '1872',
    hops: [
      { query: 'Kestrel engine inventor', page: 'kestrel-engine' },
      { query: 'Northfield University founded', page: 'northfield-university' },
    ],
    hasty_answer: '1921',
  },
];

/** What the agent is told about the answer's format. */
export const ANSWER_FORMAT = 'When you know the answer, reply with one line: ANSWER: <answer>.';

/** The text after `ANSWER:` in a reply (else the whole reply), trimmed, without a final period. */
export function extractAnswer(reply: string): string {
  const match = /ANSWER:\s*(.+)/i.exec(reply);
  return (match?.[1] ?? reply).trim().replace(/\.$/, '');
}

/** Reward: 1 when the answer is the expected one (case-insensitive), else 0. */
export const reward = (answer: string, expected: string): number =>
  answer.toLowerCase() === expected.toLowerCase() ? 1 : 0;
