import { StatementGroup } from '../actions/send/statement-group';

/** A group whose statements finish when the test says, recording what each carried. */
function recorder() {
  const started: number[][] = [];
  const pending: Array<() => void> = [];
  let running = 0;
  let most = 0;
  const run = async (items: number[]) => {
    started.push(items);
    running++;
    most = Math.max(most, running);
    await new Promise<void>((resolve) => pending.push(resolve));
    running--;
    return items;
  };
  const group = new StatementGroup<number, number>({}, {
    maxBatch: 32, weight: (w) => w, maxWeight: 2000, parallelWeight: 1000,
    alone: async (w) => (await run([w]))[0]!,
    together: (ws) => run(ws),
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** Finishes every statement running now, and lets the next ones start. */
  const finishRunning = async () => {
    for (const resolve of pending.splice(0)) resolve();
    await settle();
  };
  return { group, started, finishRunning, settle, most: () => most };
}

describe('statement groups', () => {
  it('groups light items one statement at a time', async () => {
    const r = recorder();
    const all = Promise.all(Array.from({ length: 16 }, () => r.group.run(10)));
    await r.settle();
    while (r.started.flat().length < 16) await r.finishRunning();
    await r.finishRunning();
    expect(await all).toHaveLength(16);
    expect(r.started.map((s) => s.length)).toEqual([1, 15]);
    expect(r.most()).toBe(1);
  });

  it('closes a group at its weight and runs heavy groups side by side', async () => {
    const r = recorder();
    const all = Promise.all(Array.from({ length: 16 }, () => r.group.run(200)));
    await r.settle();
    expect(r.started.map((s) => s.length)).toEqual([1]);
    await r.finishRunning();
    // 2,000 copies close the first group; it is heavy, so the rest start beside it.
    expect(r.started.map((s) => s.length)).toEqual([1, 10, 5]);
    expect(r.most()).toBe(2);
    await r.finishRunning();
    expect(await all).toHaveLength(16);
  });
});
