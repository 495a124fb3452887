/**
 * A gate for costly work shared by everyone (decision 016): at most `concurrent` jobs at once, and
 * a bounded queue per lane behind them. "trusted" (paid with proof of work, or signed in) is always
 * served before "open" (anonymous and unpaid); a full lane refuses at once with `busy`, so the
 * caller can answer with a challenge rather than keep a request waiting without end.
 */
export type Lane = "trusted" | "open";

export class LaneGate {
  private running = 0;
  private readonly waiting: Record<Lane, (() => void)[]> = { trusted: [], open: [] };

  constructor(
    private readonly concurrent: number,
    private readonly maxQueued: Readonly<Record<Lane, number>>,
    private readonly busy: () => Error,
  ) {}

  /** How full the open lane's queue is, 0 to 1. */
  openLoad(): number {
    return this.waiting.open.length / this.maxQueued.open;
  }

  /** Whether work in the open lane would be refused now. */
  openFull(): boolean {
    return this.running >= this.concurrent && this.waiting.open.length >= this.maxQueued.open;
  }

  state(): { running: number; waiting: Record<Lane, number> } {
    return { running: this.running, waiting: { trusted: this.waiting.trusted.length, open: this.waiting.open.length } };
  }

  async run<T>(lane: Lane, work: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrent) this.running += 1;
    else {
      if (this.waiting[lane].length >= this.maxQueued[lane]) throw this.busy();
      // The finishing job hands its slot straight over, so no newcomer can slip in between.
      await new Promise<void>((resolve) => this.waiting[lane].push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.trusted.shift() ?? this.waiting.open.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
