/** One (prompt, response, reward) transition, as produced by the adapter. */
export interface Triplet {
  prompt: unknown;
  response: unknown;
  reward: number | null;
  metadata: Record<string, unknown>;
}
