import { type Logger, PromptTemplate } from '@arclight/core';
import { type EvaluationSetup, evaluatePromptOnBatch, type VersionedPrompt } from './evaluation.js';
import type { APOEvent, APOPromptScore, APORound } from './events.js';
import type { ResolvedAPOOptions } from './options.js';
import { applyEdit, computeTextualGradient, type EditSetup } from './textual-gradient.js';

export interface BeamSearchSetup<T> {
  setup: EvaluationSetup;
  edit: EditSetup;
  gradBatches: Iterator<T[]>;
  valBatches: Iterator<T[]>;
  valDataset: readonly T[];
  options: ResolvedAPOOptions;
  logger: Logger;
  emit(event: APOEvent): void;
}

/** Upstream's log prefix: `[Round 01 | Beam 01 | Branch 01 | Prompt v0]`. */
export function prefixOf(parts: {
  round?: number;
  beam?: number;
  branch?: number;
  version?: string;
}): string {
  const out: string[] = [];
  const pad = (n: number) => String(n).padStart(2, '0');
  if (parts.round !== undefined) out.push(`Round ${pad(parts.round)}`);
  if (parts.beam !== undefined) out.push(`Beam ${pad(parts.beam)}`);
  if (parts.branch !== undefined) out.push(`Branch ${pad(parts.branch)}`);
  if (parts.version !== undefined) out.push(`Prompt ${parts.version}`);
  return out.length > 0 ? `[${out.join(' | ')}]` : '';
}

const scoreOf = (p: VersionedPrompt): APOPromptScore => ({ version: p.version, score: p.score });

/**
 * One APO run's beam search (upstream `APO.run` and its helpers): seed validation, then per round parent
 * sampling, candidate generation (evaluate → critique → edit), selection on a validation batch and the
 * leader's full validation. Its fields are the run's results so far, readable while it runs or after a stop.
 */
export class BeamSearch<T> {
  history: APORound[] = [];
  best: VersionedPrompt;
  bestScore = Number.NEGATIVE_INFINITY;
  seedScore: number | null = null;
  readonly seed: VersionedPrompt;
  private versionCounter = 0;
  private readonly parentOf = new WeakMap<VersionedPrompt, string>();
  private readonly setup: EvaluationSetup;
  private readonly edit: EditSetup;
  private readonly gradBatches: Iterator<T[]>;
  private readonly valBatches: Iterator<T[]>;
  private readonly valDataset: readonly T[];
  private readonly options: ResolvedAPOOptions;
  private readonly logger: Logger;
  private readonly emit: (event: APOEvent) => void;

  constructor(init: BeamSearchSetup<T>, seedTemplate: PromptTemplate) {
    this.setup = init.setup;
    this.edit = init.edit;
    this.gradBatches = init.gradBatches;
    this.valBatches = init.valBatches;
    this.valDataset = init.valDataset;
    this.options = init.options;
    this.logger = init.logger;
    this.emit = init.emit;
    this.seed = this.newVersion(seedTemplate);
    this.best = this.seed;
  }

  async search(): Promise<void> {
    const seed = this.seed;
    const { beamRounds } = this.options;
    if (this.options.runInitialValidation) {
      const prefix = prefixOf({ round: 0, version: seed.version });
      this.logger.info?.(
        `${prefix} Evaluating seed prompt on validation dataset before optimization...`,
      );
      const score = await this.evaluate(seed, this.valDataset, 'val', 0, 'seed', prefix);
      this.logger.info?.(`${prefix} Seed prompt baseline score: ${score.toFixed(3)}`);
      this.seedScore = score;
      this.bestScore = score;
    }
    let beam: VersionedPrompt[] = [seed];
    for (let round = 1; round <= beamRounds; round++) {
      this.logger.info?.(`${prefixOf({ round })} Round ${round}/${beamRounds}...`);
      const parents = this.sampleParents(beam, round);
      this.emit({
        type: 'round-start',
        round,
        rounds: beamRounds,
        parents: parents.map(([, p]) => scoreOf(p)),
      });
      const candidates = await this.generateCandidates(parents, round);
      beam = await this.selectBeam([...beam, ...candidates], round);
      const leader = await this.updateBest(beam[0]!, round);
      this.history.push({
        round,
        parents: parents.map(([, p]) => p.version),
        candidates: candidates.map((c) => ({ version: c.version, parent: this.parentOf.get(c)! })),
        beam: beam.map(scoreOf),
        leader,
        best: { version: this.best.version, score: this.finiteBest() },
      });
    }
  }

  private sampleParents(beam: VersionedPrompt[], round: number): Array<[number, VersionedPrompt]> {
    const { beamWidth } = this.options;
    if (beam.length < beamWidth) {
      this.logger.warn(
        `${prefixOf({ round })} Beam width is currently ${beamWidth}, but only ${beam.length} prompts ` +
          'in beam. Replicating all prompts.',
      );
      return Array.from({ length: beamWidth }, (_, i) => [i % beam.length, beam[i % beam.length]!]);
    }
    const indices = this.edit.random.sample(
      beam.map((_, i) => i),
      beamWidth,
    );
    return indices.map((i) => [i, beam[i]!]);
  }

  private async generateCandidates(
    parents: Array<[number, VersionedPrompt]>,
    round: number,
  ): Promise<VersionedPrompt[]> {
    const candidates: VersionedPrompt[] = [];
    for (const [beamIndex, parent] of parents) {
      for (let branch = 1; branch <= this.options.branchFactor; branch++) {
        const prefix = prefixOf({ round, beam: beamIndex + 1, branch, version: parent.version });
        const batch = this.gradBatches.next().value as T[];
        const { results } = await this.evaluateBatch(parent, batch, 'train', round, prefix);
        const { critique, file: gradientPrompt } = await computeTextualGradient(
          this.edit,
          parent.template.template,
          results,
          prefix,
        );
        if (!critique) {
          this.logger.error(
            `${prefix} Failed to compute critique for prompt; keeping it unchanged`,
          );
        }
        const edit = critique
          ? await applyEdit(this.edit, parent.template.template, critique, prefix)
          : { template: parent.template.template, file: '' };
        if (!edit.template) {
          this.logger.error(
            `${prefix} Failed to compute edit for prompt: ${parent.template.template}`,
          );
          continue;
        }
        const candidate = this.newVersion(
          new PromptTemplate({ template: edit.template, engine: 'f-string' }),
        );
        this.parentOf.set(candidate, parent.version);
        this.logger.info?.(
          `${prefixOf({ round, version: candidate.version })} New prompt template created from parent ` +
            `${parent.version}:\n\`\`\`\n${edit.template}\n\`\`\``,
        );
        this.emit({
          type: 'candidate',
          round,
          version: candidate.version,
          parent: parent.version,
          critique: critique ?? '',
          template: edit.template,
          gradientPrompt,
          editPrompt: edit.file,
        });
        candidates.push(candidate);
      }
    }
    return candidates;
  }

  private async selectBeam(
    candidates: VersionedPrompt[],
    round: number,
  ): Promise<VersionedPrompt[]> {
    this.logger.info?.(
      `${prefixOf({ round })} Evaluating ${candidates.length} candidates on validation dataset`,
    );
    const batch = this.valBatches.next().value as T[];
    for (const prompt of candidates) {
      const prefix = prefixOf({ round, version: prompt.version });
      prompt.score = await this.evaluate(prompt, batch, 'val', round, 'selection', prefix);
      this.logger.info?.(`${prefix} Candidate score: ${prompt.score.toFixed(3)}`);
    }
    const sorted = [...candidates].sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
    const beam = sorted.slice(0, this.options.beamWidth);
    if (beam.length === 0) throw new Error('APO: no beam candidates any more');
    this.logger.info?.(
      `${prefixOf({ round })} Top ${beam.length} candidates on validation dataset: ` +
        beam.map((p) => `${p.version}:${(p.score ?? 0).toFixed(3)}`).join(', '),
    );
    this.emit({ type: 'beam', round, beam: beam.map(scoreOf) });
    return beam;
  }

  private async updateBest(leader: VersionedPrompt, round: number): Promise<APOPromptScore> {
    const prefix = prefixOf({ round, version: leader.version });
    const score = await this.evaluate(leader, this.valDataset, 'val', round, 'leader', prefix);
    this.logger.info?.(`${prefix} Beam leader score: ${score.toFixed(3)}`);
    const improved = score > this.bestScore;
    if (improved) {
      this.logger.info?.(
        `${prefix} Best prompt updated. New best score: ${score.toFixed(3)} ` +
          `(prev: ${this.bestScore.toFixed(3)})`,
      );
      this.best = leader;
      this.bestScore = score;
    } else {
      this.logger.warn(
        `${prefix} Best prompt not updated. Current score: ${score.toFixed(3)} vs. history best: ` +
          `${this.bestScore.toFixed(3)}`,
      );
    }
    const leaderScore = { version: leader.version, score };
    this.emit({
      type: 'round-end',
      round,
      rounds: this.options.beamRounds,
      leader: leaderScore,
      best: { version: this.best.version, score: this.finiteBest() },
      improved,
    });
    return leaderScore;
  }

  private async evaluate(
    prompt: VersionedPrompt,
    tasks: readonly T[],
    mode: 'train' | 'val',
    round: number,
    purpose: 'seed' | 'selection' | 'leader',
    prefix: string,
  ): Promise<number> {
    return (await this.evaluateBatch(prompt, tasks, mode, round, prefix, purpose)).score;
  }

  private async evaluateBatch(
    prompt: VersionedPrompt,
    tasks: readonly T[],
    mode: 'train' | 'val',
    round: number,
    prefix: string,
    purpose: 'seed' | 'gradient' | 'selection' | 'leader' = 'gradient',
  ) {
    const evaluation = await evaluatePromptOnBatch(this.setup, prompt, tasks, mode, prefix);
    this.emit({
      type: 'evaluation',
      round,
      version: prompt.version,
      mode,
      purpose,
      tasks: tasks.length,
      finished: evaluation.results.length,
      score: evaluation.score,
    });
    return evaluation;
  }

  private newVersion(template: PromptTemplate): VersionedPrompt {
    const version = `v${this.versionCounter}`;
    this.versionCounter += 1;
    return { version, template, score: null };
  }

  finiteBest(): number | null {
    return Number.isFinite(this.bestScore) ? this.bestScore : null;
  }
}
