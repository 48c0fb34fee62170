import { DraftSaver, draftFromCompose, targetFromDraft, type DraftBackend, type DraftData, type Timers } from '../draftSaver';
import { conversationKey, sameConversation } from '../types';

class FakeTimers implements Timers {
  queue: Array<{ fn: () => void; id: number }> = [];
  private n = 0;
  set(fn: () => void) {
    const id = ++this.n;
    this.queue.push({ fn, id });
    return id;
  }
  clear(h: unknown) {
    this.queue = this.queue.filter((t) => t.id !== h);
  }
  fire() {
    const q = this.queue;
    this.queue = [];
    q.forEach((t) => t.fn());
  }
}

function backend() {
  const calls: string[] = [];
  let next = 100;
  const b: DraftBackend & { calls: string[]; failUpdate: boolean } = {
    calls,
    failUpdate: false,
    async create(d: DraftData) {
      calls.push(`create ${d.content}`);
      return next++;
    },
    async update(id, d) {
      calls.push(`update ${id} ${d.content}`);
      if (b.failUpdate) throw new Error('Draft does not exist');
    },
    async remove(id) {
      calls.push(`remove ${id}`);
    },
  };
  return b;
}

const target = { type: 'stream' as const, streamId: 5, topic: 'lunch' };
const d = (content: string) => draftFromCompose(target, content, 1_700_000_000_000);
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('DraftSaver', () => {
  it('debounces typing into one create, then updates', async () => {
    const b = backend();
    const timers = new FakeTimers();
    const saver = new DraftSaver(b, 1000, timers);
    saver.change(d('h'));
    saver.change(d('he'));
    saver.change(d('hello'));
    expect(timers.queue).toHaveLength(1);
    timers.fire();
    await settle();
    expect(b.calls).toEqual(['create hello']);
    expect(saver.id).toBe(100);
    saver.change(d('hello there'));
    timers.fire();
    await settle();
    expect(b.calls).toEqual(['create hello', 'update 100 hello there']);
  });
  it('does not save the same text twice, and deletes when cleared', async () => {
    const b = backend();
    const saver = new DraftSaver(b, 1000, new FakeTimers());
    saver.change(d('hi'));
    await saver.flush();
    saver.change(d('hi'));
    await saver.flush();
    saver.change(d('   '));
    await saver.flush();
    expect(b.calls).toEqual(['create hi', 'remove 100']);
    expect(saver.id).toBeUndefined();
  });
  it('an update queued behind a slow create waits for its id', async () => {
    const b = backend();
    let release!: () => void;
    const slow: DraftBackend = { ...b, create: (x) => new Promise((r) => (release = () => r(b.create(x)))) };
    const saver = new DraftSaver(slow, 1000, new FakeTimers());
    saver.change(d('one'));
    const first = saver.flush();
    saver.change(d('two'));
    const second = saver.flush();
    await settle();
    release();
    await first;
    await second;
    expect(b.calls).toEqual(['create one', 'update 100 two']);
  });
  it('sending drops pending text and deletes the draft', async () => {
    const b = backend();
    const timers = new FakeTimers();
    const saver = new DraftSaver(b, 1000, timers);
    saver.change(d('draft'));
    await saver.flush();
    saver.change(d('draft plus'));
    await saver.discard();
    timers.fire();
    await settle();
    expect(b.calls).toEqual(['create draft', 'remove 100']);
  });
  it('a draft deleted elsewhere is created again', async () => {
    const b = backend();
    const saver = new DraftSaver(b, 1000, new FakeTimers());
    saver.adopt(7, null);
    b.failUpdate = true;
    saver.change(d('keep me'));
    await saver.flush();
    expect(b.calls).toEqual(['update 7 keep me', 'create keep me']);
    expect(saver.id).toBe(100);
  });
  it('detaching saves and forgets the draft without deleting it', async () => {
    const b = backend();
    const saver = new DraftSaver(b, 1000, new FakeTimers());
    saver.change(d('for later'));
    await saver.detach();
    expect(saver.id).toBeUndefined();
    saver.change(d('other'));
    await saver.flush();
    expect(b.calls).toEqual(['create for later', 'create other']);
  });
});

describe('draft shapes', () => {
  it('converts between compose targets and the family draft object', () => {
    expect(d('x')).toEqual({ type: 'stream', to: [5], topic: 'lunch', content: 'x', timestamp: 1_700_000_000 });
    expect(draftFromCompose({ type: 'direct', to: [9, 3] }, 'y', 0)).toEqual({ type: 'private', to: [3, 9], topic: '', content: 'y', timestamp: 0 });
    expect(draftFromCompose(null, 'z', 0)).toMatchObject({ type: '', to: [] });
    expect(draftFromCompose({ type: 'stream', streamId: 0, topic: 't' }, 'z', 0)).toMatchObject({ type: '', to: [] });
    expect(draftFromCompose({ type: 'direct', to: [] }, 'z', 0)).toMatchObject({ type: '', to: [] });
    expect(targetFromDraft({ type: 'private', to: [3, 9], topic: '' })).toEqual({ type: 'direct', to: [3, 9] });
    expect(targetFromDraft({ type: 'stream', to: [5], topic: 'a' })).toEqual(target.topic === 'a' ? target : { type: 'stream', streamId: 5, topic: 'a' });
    expect(targetFromDraft({ type: '', to: [], topic: '' })).toBeNull();
  });
  it('keys conversations case-insensitively by topic and by the set of people', () => {
    expect(conversationKey({ type: 'stream', streamId: 5, topic: 'Lunch' })).toBe(conversationKey(target));
    expect(sameConversation({ type: 'direct', to: [3, 9] }, { type: 'direct', to: [9, 3] })).toBe(true);
    expect(sameConversation(target, { type: 'direct', to: [5] })).toBe(false);
  });
});

describe('DraftSaver across conversations', () => {
  it('a restored draft adopted while the previous text is still being saved keeps its own id', async () => {
    const b = backend();
    let release!: () => void;
    const slow: DraftBackend = { ...b, create: (x) => new Promise((r) => (release = () => r(b.create(x)))) };
    const saver = new DraftSaver(slow, 1000, new FakeTimers());
    saver.change(d('first conversation'));
    const detached = saver.detach();
    saver.adopt(42, d('restored'));
    expect(saver.id).toBe(42);
    await settle();
    release();
    await detached;
    expect(saver.id).toBe(42);
    saver.change(d('restored, edited'));
    await saver.discard();
    expect(b.calls).toEqual(['create first conversation', 'remove 42']);
  });
  it('discarding right after typing deletes the draft the pending create makes', async () => {
    const b = backend();
    const saver = new DraftSaver(b, 1000, new FakeTimers());
    saver.change(d('quick'));
    void saver.flush();
    await saver.discard();
    expect(b.calls).toEqual(['create quick', 'remove 100']);
  });
});
