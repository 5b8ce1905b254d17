/** A prompt version and its score (average final reward; null: not evaluated). */
export interface APOPromptScore {
  version: string;
  score: number | null;
}

/**
 * What APO reports while it runs (`onProgress`), in order: `evaluation` for every batch it evaluates (seed,
 * gradient batches, selection, beam leader), `round-start`, one `candidate` per new prompt, `beam` after the
 * selection, `round-end` with the leader's full-validation score and the best so far, and `done`.
 */
export type APOEvent =
  | {
      type: 'evaluation';
      /** 0 for the seed's initial validation. */
      round: number;
      version: string;
      mode: 'train' | 'val';
      /** `seed`: initial validation; `gradient`: a parent on a training batch; `selection`: a candidate on
       * the round's validation batch; `leader`: the beam's best on the full validation set. */
      purpose: 'seed' | 'gradient' | 'selection' | 'leader';
      tasks: number;
      finished: number;
      score: number;
    }
  | { type: 'round-start'; round: number; rounds: number; parents: APOPromptScore[] }
  | {
      type: 'candidate';
      round: number;
      version: string;
      parent: string;
      critique: string;
      template: string;
      /** File names of the gradient and apply-edit prompts used. */
      gradientPrompt: string;
      editPrompt: string;
    }
  | { type: 'beam'; round: number; beam: APOPromptScore[] }
  | {
      type: 'round-end';
      round: number;
      rounds: number;
      /** The beam's best, scored on the full validation set. */
      leader: APOPromptScore;
      best: APOPromptScore;
      improved: boolean;
    }
  | { type: 'done'; best: APOPromptScore; seed: APOPromptScore; stopped: boolean };

/** What one beam round did (`APO.history`). */
export interface APORound {
  round: number;
  parents: string[];
  candidates: Array<{ version: string; parent: string }>;
  /** The beam after selection, with the validation-batch scores. */
  beam: APOPromptScore[];
  leader: APOPromptScore;
  best: APOPromptScore;
}
