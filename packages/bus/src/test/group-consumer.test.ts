import { entryHandler } from '../group-consumer';
import type { StreamEntry } from '../entries';

const entry = (streamId: string, type = 'message'): StreamEntry =>
  ({ partition: 0, streamId, outboxId: 1, realmId: 1, type, payload: {} }) as unknown as StreamEntry;

describe('entryHandler', () => {
  it('hands each entry its batch value, read once per batch', async () => {
    const seen: Array<[string, number]> = [];
    let reads = 0;
    const handler = entryHandler({
      perBatch: async () => ++reads,
      handle: async (e, batch: number) => void seen.push([e.streamId, batch]),
      onGiveUp: () => undefined,
    });
    await handler([entry('1-0'), entry('2-0')]);
    expect(seen).toEqual([['1-0', 1], ['2-0', 1]]);
    expect(reads).toBe(1);
  });

  it('fails the batch until an entry has failed maxEntryAttempts times, then gives it up and goes on', async () => {
    const handled: string[] = [];
    const givenUp: string[] = [];
    const handler = entryHandler({
      maxEntryAttempts: 3,
      handle: async (e) => {
        if (e.streamId === '2-0') throw new Error('database away');
        handled.push(e.streamId);
      },
      onGiveUp: (err, e) => givenUp.push(`${e.streamId}: ${(err as Error).message}`),
    });
    const batch = [entry('1-0'), entry('2-0'), entry('3-0')];
    await expect(handler(batch)).rejects.toThrow('database away');
    await expect(handler(batch)).rejects.toThrow('database away');
    await handler(batch);
    expect(givenUp).toEqual(['2-0: database away']);
    // The entry before the failing one is handled again with each retry of its batch.
    expect(handled).toEqual(['1-0', '1-0', '1-0', '3-0']);
  });

  it('counts attempts per entry: one that succeeds on a retry starts afresh', async () => {
    let failures = 1;
    const givenUp: string[] = [];
    const handler = entryHandler({
      maxEntryAttempts: 2,
      handle: async () => {
        if (failures-- > 0) throw new Error('once');
      },
      onGiveUp: (_err, e) => givenUp.push(e.streamId),
    });
    await expect(handler([entry('1-0')])).rejects.toThrow('once');
    await handler([entry('1-0')]);
    failures = 1;
    await expect(handler([entry('1-0')])).rejects.toThrow('once');
    expect(givenUp).toEqual([]);
  });
});
