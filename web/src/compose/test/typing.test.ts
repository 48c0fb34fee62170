import { TypingNotifier, type TypingRecipient } from '../typingNotifier';

describe('TypingNotifier', () => {
  let now = 0;
  let timers: Array<{ fn: () => void; at: number; id: number }> = [];
  let n = 0;
  const sent: string[] = [];
  const advance = (ms: number) => {
    now += ms;
    const due = timers.filter((t) => t.at <= now);
    timers = timers.filter((t) => t.at > now);
    due.forEach((t) => t.fn());
  };
  const make = () =>
    new TypingNotifier(
      (op, to) => sent.push(`${op} ${to.type === 'stream' ? `${to.stream_id}/${to.topic}` : to.to.join(',')}`),
      () => now,
      { set: (fn, ms) => (timers.push({ fn, at: now + ms, id: ++n }), n), clear: (id) => (timers = timers.filter((t) => t.id !== id)) },
    );
  beforeEach(() => {
    now = 0;
    timers = [];
    sent.length = 0;
  });
  const topic: TypingRecipient = { type: 'stream', stream_id: 5, topic: 'lunch' };

  it('starts once, repeats every 10 s while typing, stops after 5 s idle', () => {
    const t = make();
    t.typed(topic);
    advance(1000);
    t.typed(topic);
    advance(4000);
    t.typed(topic);
    expect(sent).toEqual(['start 5/lunch']);
    advance(4000);
    t.typed(topic);
    advance(1500);
    t.typed(topic);
    expect(sent).toEqual(['start 5/lunch', 'start 5/lunch']);
    advance(5000);
    expect(sent).toEqual(['start 5/lunch', 'start 5/lunch', 'stop 5/lunch']);
    expect(t.active).toBe(false);
  });
  it('stops the old conversation when the recipient changes, and on send', () => {
    const t = make();
    t.typed(topic);
    t.typed({ type: 'direct', to: [3, 4] });
    t.stop();
    t.stop();
    expect(sent).toEqual(['start 5/lunch', 'stop 5/lunch', 'start 3,4', 'stop 3,4']);
  });
  it('sends nothing without a recipient', () => {
    const t = make();
    t.typed(null);
    advance(6000);
    expect(sent).toEqual([]);
  });
});
