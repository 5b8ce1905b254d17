// Runs responders for normalised requests and turns their replies into generations.
import { buildGeneration, type Generation } from './generation.js';
import { canonicalJson, sha256Hex } from './hash.js';
import type { FixtureTokenizer } from './tokenizer.js';
import type { FixtureErrorReply, FixtureRequest, Responder } from './types.js';

export interface EngineResult {
  /** Generations per request (one request per legacy prompt), `n` choices each. */
  generations: Generation[][];
  requestHash: string;
  callIndex: number;
}

export class Engine {
  private calls = 0;

  constructor(
    readonly tokenizer: FixtureTokenizer,
    private readonly responders: () => readonly Responder[],
  ) {}

  reset(): void {
    this.calls = 0;
  }

  /** Returns the generations, or the first error a responder replied with. */
  async run(
    reqs: readonly FixtureRequest[],
    n: number,
  ): Promise<EngineResult | { error: FixtureErrorReply }> {
    const first = reqs[0]!;
    const requestHash = sha256Hex(`${first.path}\n${canonicalJson(first.body)}`);
    const callIndex = this.calls++;
    const generations: Generation[][] = [];
    for (const [p, req] of reqs.entries()) {
      const choices: Generation[] = [];
      for (let i = 0; i < n; i++) {
        const choiceIndex = p * n + i;
        const responder = this.responders().find((r) => r.match(req));
        if (!responder)
          throw new Error('no responder matched (the echo responder should always match)');
        const ctx = { tokenizer: this.tokenizer, callIndex, choiceIndex, requestHash };
        const reply = await responder.reply(req, ctx);
        if (reply.error) return { error: reply.error };
        choices.push(
          buildGeneration(this.tokenizer, req, reply, { requestHash, callIndex, choiceIndex }),
        );
      }
      generations.push(choices);
    }
    return { generations, requestHash, callIndex };
  }
}
