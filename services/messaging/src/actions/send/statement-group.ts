/**
 * Grouping of a hot statement's runs (ADR 0031): while `inFlight` of them (1 unless configured)
 * are running on the pool, the ones that arrive wait, and the next run takes all of them (up to
 * `maxBatch`) in one statement. What a statement, a commit and a round trip cost Postgres and this process is then
 * paid once per group, not once per send. Nothing waits on a timer: with fewer than `inFlight`
 * running, a run starts at once, so a lone send is exactly as before. (Deferring the start to
 * the event loop's next turn, so that sends read together also start together, measured no
 * less CPU per send and a slower lone send.)
 *
 * A group's statement is atomic. If Postgres refuses it, each of its items runs again alone, so
 * one item's error (its channel deleted meanwhile, say) is that item's only. If the connection
 * is lost instead, the answer to a commit may be what was lost: then every item fails as a lone
 * one would, and none is run twice.
 */

export interface GroupOptions<I, O> {
  /** One item's own statement. */
  alone(item: I): Promise<O>;
  /** One statement for several items; its results in the items' order. */
  together(items: I[]): Promise<O[]>;
  /** Items in one statement at most. */
  maxBatch: number;
  /**
   * An item's share of a statement's work (a write's rows). A group closes once it holds
   * `maxWeight` (its first item whatever its weight); while every statement running holds
   * `parallelWeight` or more, another may start beside them, up to MAX_PARALLEL: big writes
   * gain little from sharing a statement and much from a second core.
   */
  weight?: (item: I) => number;
  maxWeight?: number;
  parallelWeight?: number;
}

/** Statements of one group running at once at most, however heavy. */
const MAX_PARALLEL = 4;

/** Statements of one group running at once on a pool, unless configured for it. */
const IN_FLIGHT = 1;
const configured = new WeakMap<object, number>();

/** Sets how many statements of each group run at once on `pool` (the service's SEND_STATEMENTS_IN_FLIGHT). */
export function configureStatementGroups(pool: object, inFlight: number): void {
  configured.set(pool, inFlight);
}

/**
 * What a group did so far: statements run, those that carried several items (`groups`) and the
 * items they carried, items run again alone after their group was refused.
 */
export interface GroupStats {
  statements: number;
  groups: number;
  grouped: number;
  retriedAlone: number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (out: O) => void;
  reject: (err: unknown) => void;
}

/** An error Postgres answered with (it has a severity), not a broken connection. */
export function refusedByServer(err: unknown): boolean {
  return typeof err === 'object' && err !== null && typeof (err as { severity?: unknown }).severity === 'string';
}

export class StatementGroup<I, O> {
  /** The weight of each statement running. */
  private readonly running = new Set<{ weight: number }>();
  private readonly waiting: Array<Waiting<I, O>> = [];
  readonly stats: GroupStats = { statements: 0, groups: 0, grouped: 0, retriedAlone: 0 };

  /** `pool`: the Db whose connections run the statements, and whose configuration applies. */
  constructor(private readonly pool: object, private readonly opts: GroupOptions<I, O>) {}

  run(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.waiting.length && this.mayStart()) {
      const { batch, weight } = this.take();
      const slot = { weight };
      this.running.add(slot);
      void this.runBatch(batch).finally(() => {
        this.running.delete(slot);
        this.pump();
      });
    }
  }

  private mayStart(): boolean {
    if (this.running.size < (configured.get(this.pool) ?? IN_FLIGHT)) return true;
    const heavy = this.opts.parallelWeight;
    return heavy !== undefined && this.running.size < MAX_PARALLEL && [...this.running].every((r) => r.weight >= heavy);
  }

  /** The next group: waiting items in order, up to maxBatch of them and maxWeight of work. */
  private take(): { batch: Array<Waiting<I, O>>; weight: number } {
    const { weight: weightOf, maxWeight = Infinity, maxBatch } = this.opts;
    let n = 0;
    let weight = 0;
    while (n < this.waiting.length && n < maxBatch && (n === 0 || weight < maxWeight)) {
      weight += weightOf ? weightOf(this.waiting[n]!.item) : 1;
      n++;
    }
    return { batch: this.waiting.splice(0, n), weight };
  }

  private async runBatch(batch: Array<Waiting<I, O>>): Promise<void> {
    if (batch.length === 1) return this.alone(batch[0]!);
    this.stats.statements++;
    this.stats.groups++;
    this.stats.grouped += batch.length;
    let outs: O[];
    try {
      outs = await this.opts.together(batch.map((b) => b.item));
    } catch (err) {
      if (!refusedByServer(err)) {
        for (const b of batch) b.reject(err);
        return;
      }
      this.stats.retriedAlone += batch.length;
      await Promise.all(batch.map((b) => this.alone(b)));
      return;
    }
    batch.forEach((b, i) => b.resolve(outs[i]!));
  }

  private async alone(b: Waiting<I, O>): Promise<void> {
    this.stats.statements++;
    try {
      b.resolve(await this.opts.alone(b.item));
    } catch (err) {
      b.reject(err);
    }
  }
}

/** One group per pool (per Db) for a purpose, made on first use. */
export function groupPerPool<K extends object, I, O>(opts: (pool: K) => GroupOptions<I, O>): (pool: K) => StatementGroup<I, O> {
  const groups = new WeakMap<K, StatementGroup<I, O>>();
  return (pool) => {
    let g = groups.get(pool);
    if (!g) groups.set(pool, (g = new StatementGroup(pool, opts(pool))));
    return g;
  };
}
