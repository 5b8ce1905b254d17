import type { APOEvent } from '@arclight/algorithms';

/** Where the display writes: a terminal gets a live status line, anything else plain lines. */
export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
  /** Terminal width; the status line is cut to fit so it never wraps. */
  columns?: number;
}

const fmt = (score: number | null | undefined): string =>
  typeof score === 'number' ? score.toFixed(3) : '  -  ';

const bar = (score: number | null, width = 30): string =>
  '█'.repeat(Math.round(Math.max(0, Math.min(1, score ?? 0)) * width)).padEnd(width, '·');

/**
 * Turns APO's progress events into a readable log: a line per seed score, candidate, beam and round, and — on a
 * terminal — a status line showing what is being evaluated and how many rollouts finished.
 */
export class ApoProgress {
  rollouts = 0;
  /** Full-validation scores: the seed (round 0) and each round's leader. */
  readonly curve: Array<{ round: number; version: string; score: number; best: string }> = [];
  private readonly templates = new Map<string, string>();
  private status = '';

  constructor(
    private readonly out: Output,
    seedTemplate: string,
  ) {
    this.templates.set('v0', seedTemplate);
  }

  readonly onEvent = (event: APOEvent): void => {
    switch (event.type) {
      case 'evaluation': {
        this.rollouts += event.finished;
        if (event.purpose === 'seed') {
          this.curve.push({
            round: 0,
            version: event.version,
            score: event.score,
            best: event.version,
          });
          this.line(
            `Seed prompt ${event.version}: validation reward ${fmt(event.score)} (${event.finished} tasks)`,
          );
        } else {
          const what =
            event.purpose === 'gradient'
              ? `running ${event.version} on ${event.tasks} training tasks for a critique`
              : event.purpose === 'selection'
                ? `scoring ${event.version} on ${event.tasks} validation tasks`
                : `scoring leader ${event.version} on all ${event.tasks} validation tasks`;
          this.setStatus(`round ${event.round}: ${what} → ${fmt(event.score)}`);
        }
        break;
      }
      case 'round-start':
        this.line(
          `Round ${event.round}/${event.rounds}: parents ${event.parents.map((p) => p.version).join(', ')}`,
        );
        break;
      case 'candidate': {
        this.templates.set(event.version, event.template);
        const before = new Set((this.templates.get(event.parent) ?? '').split('\n'));
        const added = event.template.split('\n').filter((l) => l.trim() !== '' && !before.has(l));
        const change =
          added.length === 0
            ? 'unchanged'
            : `${added.length} new line(s): ${added.slice(0, 2).join(' ⏎ ').slice(0, 140)}`;
        this.line(`  ${event.version} ← ${event.parent}: ${change}`);
        break;
      }
      case 'beam':
        this.line(
          `  beam: ${event.beam.map((p) => `${p.version} ${fmt(p.score)}`).join(', ')} (validation batch)`,
        );
        break;
      case 'round-end':
        this.curve.push({
          round: event.round,
          version: event.leader.version,
          score: event.leader.score ?? 0,
          best: event.best.version,
        });
        this.line(
          `Round ${event.round}/${event.rounds}: leader ${event.leader.version} scores ` +
            `${fmt(event.leader.score)} on the validation set; best so far ${event.best.version} ` +
            `${fmt(event.best.score)}${event.improved ? ' (improved)' : ''}`,
        );
        break;
      case 'done':
        this.setStatus('');
        break;
    }
  };

  /** The reward curve: one bar per round (validation reward of the round's leader). */
  chart(): string[] {
    return this.curve.map(
      (point) =>
        `  ${point.round === 0 ? 'seed   ' : `round ${point.round}`}  ${point.version.padEnd(4)} ` +
        `${fmt(point.score)}  ${bar(point.score)}`,
    );
  }

  /** Prints a permanent line (above the status line on a terminal). */
  line(text: string): void {
    if (this.out.isTTY) this.out.write('\r\x1b[2K');
    this.out.write(`${text}\n`);
    this.renderStatus();
  }

  private setStatus(text: string): void {
    this.status = text;
    this.renderStatus();
  }

  private renderStatus(): void {
    if (!this.out.isTTY) return;
    const text = this.status ? `  … ${this.status} · ${this.rollouts} rollouts done` : '';
    this.out.write(`\r\x1b[2K${text.slice(0, Math.max(20, (this.out.columns ?? 100) - 1))}`);
  }
}
