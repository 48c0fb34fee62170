import { createHmac } from 'node:crypto';
import { checkHmacSha256, eventWanted, INTEGRATIONS, Payload, type WebhookRequest } from '..';
import { pushText, topic } from '../format';

const request = (raw: string, config: Record<string, string> = {}): WebhookRequest => ({
  headers: {}, params: {}, body: new Payload(JSON.parse(raw)), raw: Buffer.from(raw), config,
});

describe('event filters', () => {
  it('match whole names with the shell patterns of the family', () => {
    expect(eventWanted('pull_request', { onlyEvents: ['pull_*'] })).toBe(true);
    expect(eventWanted('pull_request_review', { onlyEvents: ['pull_request'] })).toBe(false);
    expect(eventWanted('ping', { excludeEvents: ['p?ng'] })).toBe(false);
    expect(eventWanted('push', { onlyEvents: ['[pq]ush'], excludeEvents: ['issues'] })).toBe(true);
    expect(eventWanted('push', { onlyEvents: ['[!p]ush'] })).toBe(false);
    expect(eventWanted('a.b', { onlyEvents: ['a?b'] })).toBe(true);
    expect(eventWanted('aXb', { onlyEvents: ['a.b'] })).toBe(false);
  });
});

describe('the payload reader', () => {
  it('names the field that is missing or of the wrong type', () => {
    const p = new Payload({ a: { b: 1, c: ['x'] } });
    expect(p.at('a.b').num()).toBe(1);
    expect(() => p.at('a.d').str()).toThrow('payload["a"]["d"] is missing');
    expect(() => p.at('a.b').str()).toThrow('payload["a"]["b"] is not a string');
    expect(() => p.at('a.c').get(0).num()).toThrow('payload["a"]["c"][0] is not a number');
    expect(p.at('a.zzz').optStr()).toBeUndefined();
    expect(() => new Payload('text').get('a').str()).toThrow('payload["a"] is missing');
  });
});

describe('signatures', () => {
  const raw = '{"zen":"Keep it logically awesome."}';
  const sig = (secret: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  it('are checked only when the bot has a secret, over the bytes as sent', () => {
    expect(() => checkHmacSha256(request(raw), undefined, 'sha256=')).not.toThrow();
    expect(() => checkHmacSha256(request(raw, { secret: 's3' }), sig('s3'), 'sha256=')).not.toThrow();
    expect(() => checkHmacSha256(request(raw, { secret: 's3' }), sig('s4'), 'sha256=')).toThrow('Webhook signature verification failed.');
    expect(() => checkHmacSha256(request(raw, { secret: 's3' }), undefined, 'sha256=')).toThrow('Webhook signature verification failed.');
  });
});

describe('formats', () => {
  it('cut long topics with an ellipsis', () => {
    expect(topic('x'.repeat(60))).toBe('x'.repeat(60));
    expect(topic('x'.repeat(61))).toBe(`${'x'.repeat(59)}…`);
  });
  it('name up to three committers of a push, then others', () => {
    const commit = (author: string, n: number) => ({ sha: `${n}`.repeat(40), message: `change ${n}`, author });
    const commits = ['ann', 'bob', 'bob', 'cy', 'dee', 'eve', 'cy'].map(commit);
    const text = pushText({ pusher: 'ann', branch: 'main', commits });
    expect(text.split('\n')[0]).toBe('ann pushed 7 commits to branch main. Commits by bob (2), cy (2), ann (1) and others (2).');
    const many = pushText({ pusher: 'ann', branch: 'main', commits: Array.from({ length: 25 }, (_, i) => commit('ann', i)) });
    expect(many.split('\n').at(-1)).toBe('[and 5 more commit(s)]');
  });
});

it('gives every integration a unique lower-case name', () => {
  const names = INTEGRATIONS.map((i) => i.name);
  expect(new Set(names).size).toBe(names.length);
  for (const n of names) expect(n).toMatch(/^[a-z0-9_]+$/);
});
