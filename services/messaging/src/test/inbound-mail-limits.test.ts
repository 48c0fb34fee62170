/**
 * The inbound mail listener's limits, in process (the service's own start() with
 * INBOUND_SMTP_PORT, real Postgres and Redis, nodemailer speaking SMTP to it): mail to one
 * realm's channel addresses is limited per minute whoever sends it, as the family limits its
 * mirror per realm; reply addresses are not (a person answering their own notifications).
 */
import nodemailer from 'nodemailer';
import { createMissedMessageAddress } from '@chat/realm';
import { freePort } from '@chat/testing';
import { startHarness, type Harness } from './support';

let h: Harness;
let port: number;
let address: string;

beforeAll(async () => {
  port = await freePort();
  h = await startHarness({ EMAIL_GATEWAY_DOMAIN: 'mail.chat.test', INBOUND_SMTP_PORT: String(port), INBOUND_MAIL_REALM_PER_MINUTE: '2', INBOUND_MAIL_SENDER_PER_MINUTE: '0' });
  const { owner, member } = h.realm;
  const channel = await h.createStream(owner, { name: 'alerts' }, [owner, member]);
  address = (await h.api.get(`/api/v1/streams/${channel}/email_address`).set(h.as(owner))).body.email;
});
afterAll(() => h?.close());

async function send(from: string, to: string, text: string): Promise<{ code: number; text: string }> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  try {
    const info = await transport.sendMail({ from, to, subject: 'disk full', text });
    return { code: Number(info.response.slice(0, 3)), text: info.response };
  } catch (err) {
    const e = err as { responseCode?: number; response?: string; rejectedErrors?: Array<{ responseCode: number; response: string }> };
    const first = e.rejectedErrors?.[0] ?? e;
    return { code: first.responseCode ?? 0, text: first.response ?? String(err) };
  } finally {
    transport.close();
  }
}

it('limits mail to a realm\'s channel addresses per minute, whoever sends it, and not replies', async () => {
  expect((await send('monitor-a@outside.test', address, 'one')).code).toBe(250);
  expect((await send('monitor-b@outside.test', address, 'two')).code).toBe(250);
  const third = await send('monitor-c@outside.test', address, 'three');
  expect(third.code).toBe(550);
  expect(third.text).toMatch(/Rate limit exceeded for this organization/);
  const posted = await h.env.db.message.findMany({ where: { realmId: h.realm.realmId, topic: 'disk full' }, orderBy: { id: 'asc' } });
  expect(posted.map((m) => m.content)).toEqual(['From: monitor-a@outside.test\none', 'From: monitor-b@outside.test\ntwo']);

  const { member, member2 } = h.realm;
  const reply = await createMissedMessageAddress(h.env.db, { realmId: h.realm.realmId, userId: member.id, conversation: { type: 'direct', userIds: [member2.id] } }, 'mail.chat.test');
  expect((await send(member.email, reply, 'on my way')).code).toBe(250);
});
