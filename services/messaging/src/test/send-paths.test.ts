import { createLogger } from '@chat/kit';
import { TEST_REALM_URL, type SeededUser } from '@chat/testing';
import { readConfig } from '../config';
import type { Services } from '../context';
import { checkSendMessage, requestCaller, type SendInput } from '../actions/send';
import { planWrite } from '../actions/send/plan-write';
import type { WritePath } from '../actions/send/plan';
import { startHarness, type Harness } from './support';

// Which write path a send takes and why (actions/send/plan-write.ts), checked and planned as
// POST /messages does, without writing.
let h: Harness;
let services: Services;

beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2 } = h.realm;
  await h.createStream(owner, { name: 'Paths' }, [owner, member, member2]);
  services = { db: h.env.db, log: createLogger('messaging', 'silent'), config: readConfig(h.env.env) };
});
afterAll(() => h?.close());

const callerOf = (u: SeededUser) =>
  requestCaller({ realmId: h.realm.realmId, realmUrl: TEST_REALM_URL, userId: u.id, email: u.email, role: u.role, isBot: u.isBot });

async function pathOf(input: Omit<SendInput, 'client'>, key?: string): Promise<WritePath> {
  const plan = await checkSendMessage(services, callerOf(h.realm.member), { client: 'test', ...input });
  return (await planWrite(services.db, plan, { key })).path;
}

const toPaths = (content: string, topic = 'plans') => ({ type: 'stream', to: 'Paths', topic, content });

async function send(content: string, topic = 'plans'): Promise<void> {
  const res = await h.api.post('/api/v1/messages').set(h.as(h.realm.member)).type('form').send(toPaths(content, topic));
  expect(res.body.result).toBe('success');
}

it('writes a channel message in a transaction until its channel has had one and its sender follows the topic', async () => {
  expect(await pathOf(toPaths('first'))).toEqual({ kind: 'transaction', reason: 'first-message' });
  await send('first');
  // The sender's first message in a new topic makes them follow it (their automatic policy).
  expect(await pathOf(toPaths('new topic', 'elsewhere'))).toEqual({ kind: 'transaction', reason: 'topic-policy' });
});

it('groups the usual channel message, and takes the transaction for what must commit with it', async () => {
  expect(await pathOf(toPaths('usual'))).toEqual({ kind: 'grouped' });
  expect(await pathOf(toPaths('usual'), 'h:retry-1')).toEqual({ kind: 'transaction', reason: 'idempotency-key' });
  expect(await pathOf(toPaths('hello @**all**'))).toEqual({ kind: 'transaction', reason: 'mentions' });
  expect(await pathOf(toPaths('/poll Lunch?\nPizza\nSalad'))).toEqual({ kind: 'transaction', reason: 'object-not-built' });
  expect(await pathOf(toPaths('[notes.txt](/user_uploads/1/ab/abcdefghijklmnopqrstuvwx/notes.txt)'))).toEqual({ kind: 'transaction', reason: 'links-upload' });
});

it('writes a direct message alone unless it carries a key', async () => {
  const dm = { type: 'private', to: JSON.stringify([h.realm.member2.id]), content: 'hi' };
  expect(await pathOf(dm)).toEqual({ kind: 'alone' });
  expect(await pathOf(dm, 'h:retry-2')).toEqual({ kind: 'transaction', reason: 'idempotency-key' });
});
