/**
 * The inbound mail listener as `npm start` runs it: a messaging replica with INBOUND_SMTP_PORT,
 * every service its own process, receiving real SMTP dialogues from nodemailer. Posted mail is
 * read back through the gateway's API; refusals are checked by their SMTP reply codes.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { createMissedMessageAddress } from '@chat/realm';
import { freePort, seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import { topicOfSubject, withoutFooter } from '../lib/mail-body';

const DOMAIN = 'mail.chat.test';
let env: TestEnv;
let realm: SeededRealm;
let cluster: Cluster;
let smtpPort: number;
let channelId: number;
let listener: { metricsUrl: string };
/** Stand-in for the operator's relay: the users service's outgoing mail lands here, parsed. */
let relay: { port: number; received: Array<{ rcpt: string; mail: ParsedMail }>; server: SMTPServer };

async function startRelay(): Promise<typeof relay> {
  const received: Array<{ rcpt: string; mail: ParsedMail }> = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        for (const r of session.envelope.rcptTo) received.push({ rcpt: r.address, mail });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.server.address() as AddressInfo).port, received, server };
}

async function api(method: string, path: string, user: SeededUser, params: Record<string, unknown> = {}) {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  const auth = `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`;
  const query = method === 'GET' ? `?${form}` : '';
  const res = await fetch(`${cluster.url}/api/v1${path}${query}`, {
    method,
    headers: { authorization: auth, ...(method === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
    body: method === 'GET' ? undefined : form,
  });
  return (await res.json()) as Record<string, any>;
}

/** The newest messages of a narrow, as raw Markdown. */
async function latest(user: SeededUser, narrow: unknown[], count = 1) {
  const res = await api('GET', '/messages', user, { anchor: 'newest', num_before: count, num_after: 0, narrow, apply_markdown: false });
  expect(res.result).toBe('success');
  return res.messages as Array<{ id: number; content: string; subject: string; sender_id: number; sender_full_name: string; display_recipient: unknown }>;
}

async function send(mail: SendMailOptions) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
  try {
    return await transport.sendMail(mail);
  } finally {
    transport.close();
  }
}

/** The SMTP reply code nodemailer saw for a refused mail. */
async function refusal(mail: SendMailOptions): Promise<{ code: number; text: string }> {
  try {
    await send(mail);
  } catch (err) {
    const e = err as { responseCode?: number; response?: string; rejectedErrors?: Array<{ responseCode: number; response: string }> };
    const first = e.rejectedErrors?.[0] ?? e;
    return { code: first.responseCode ?? 0, text: first.response ?? String(err) };
  }
  throw new Error('the mail was accepted');
}

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  relay = await startRelay();
  const mail = { EMAIL_HOST: '127.0.0.1', EMAIL_PORT: String(relay.port), EMAIL_USE_TLS: 'false', EMAIL_RETRY_BASE_MS: '50', NOREPLY_EMAIL_ADDRESS: 'noreply@chat.test' };
  cluster = await startCluster(env, { env: { EMAIL_GATEWAY_DOMAIN: DOMAIN, ...mail }, readyTimeoutMs: 180_000 });
  smtpPort = await freePort();
  // A replica of its own runs the listener, as a deployment scales it apart from the API's.
  listener = await cluster.addReplica('messaging', { INBOUND_SMTP_PORT: String(smtpPort), INBOUND_MAIL_MAX_BYTES: '200000', INBOUND_MAIL_SENDER_PER_MINUTE: '4' });
  const made = await api('POST', '/users/me/subscriptions', realm.owner, { subscriptions: [{ name: 'mailbox' }], principals: [realm.owner.id, realm.member.id] });
  expect(made.result).toBe('success');
  channelId = (await api('GET', '/get_stream_id', realm.owner, { stream: 'mailbox' })).stream_id;
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await new Promise<void>((resolve) => (relay ? relay.server.close(() => resolve()) : resolve()));
  await env?.close();
});

it('posts mail to a channel address in that channel: subject as topic, quotes and signature cut, attachment uploaded and linked, sender shown', async () => {
  const address = (await api('GET', `/streams/${channelId}/email_address`, realm.owner)).email as string;
  expect(address).toMatch(new RegExp(`^mailbox\\.[0-9a-f]{32}\\.show-sender@${DOMAIN.replace(/\./g, '\\.')}$`));
  const info = await send({
    from: 'Alice Example <alice@outside.test>',
    to: address,
    subject: 'Re: Quarterly numbers',
    messageId: '<q1@outside.test>',
    text: 'The numbers are in.\n\nOn Mon, Nov 23, 2026 at 9:00 AM Bob <bob@outside.test> wrote:\n> Where are the numbers?\n\n--\nAlice\nACME Corp\n',
    attachments: [{ filename: 'report [final].txt', content: 'revenue: 42\n', contentType: 'text/plain' }],
  });
  expect(info.response).toMatch(/^250 /);
  const [message] = await latest(realm.member, [{ operator: 'channel', operand: 'mailbox' }, { operator: 'topic', operand: 'Quarterly numbers' }]);
  expect(message!.sender_full_name).toBe('Email Gateway');
  const link = /\[report final\.txt\]\((\/user_uploads\/[^)]+)\)/.exec(message!.content);
  expect(link).not.toBeNull();
  expect(message!.content).toBe(`From: "Alice Example" <alice@outside.test>\nThe numbers are in.\n\n[report final.txt](${link![1]})`);
  // The upload is a real file the channel's readers can fetch.
  const auth = `Basic ${Buffer.from(`${realm.member.email}:${realm.member.apiKey}`).toString('base64')}`;
  const file = await fetch(`${cluster.url}${link![1]}`, { headers: { authorization: auth } });
  expect([file.status, await file.text()]).toEqual([200, 'revenue: 42\n']);

  // The sending server retrying the same mail (its answer lost) does not post it twice.
  await send({ from: 'alice@outside.test', to: address, subject: 'Re: Quarterly numbers', messageId: '<q1@outside.test>', text: 'The numbers are in.' });
  expect((await latest(realm.member, [{ operator: 'channel', operand: 'mailbox' }, { operator: 'topic', operand: 'Quarterly numbers' }], 5)).length).toBe(1);
});

it('honours the address options: prefer-html converts the HTML to Markdown, include-quotes keeps the history', async () => {
  const base = (await api('GET', `/streams/${channelId}/email_address`, realm.owner)).email as string;
  const [local, domain] = base.split('@');
  const token = local!.split('.')[1];
  await send({
    from: 'carol@outside.test',
    to: `mailbox.${token}.prefer-html@${domain}`,
    subject: 'Launch plan',
    text: 'plain version',
    html: '<p>Ship it <b>Friday</b>, see <a href="https://example.com/plan">the plan</a>.</p><ul><li>one</li><li>two</li></ul><blockquote type="cite">earlier message</blockquote>',
  });
  const [html] = await latest(realm.member, [{ operator: 'channel', operand: 'mailbox' }, { operator: 'topic', operand: 'Launch plan' }]);
  expect(html!.content).toBe('Ship it **Friday**, see [the plan](https://example.com/plan).\n\n*   one\n*   two');

  // HTML only: converted, not the text a mail library would make of it.
  await send({ from: 'carol@outside.test', to: `${token}@${domain}`, subject: 'Html only', html: '<div>Read <a href="https://example.com/x">this</a><br>now</div>' });
  const [htmlOnly] = await latest(realm.member, [{ operator: 'channel', operand: 'mailbox' }, { operator: 'topic', operand: 'Html only' }]);
  expect(htmlOnly!.content).toBe('Read [this](https://example.com/x)  \nnow');

  await send({ from: 'carol@outside.test', to: `${token}+include-quotes@${domain}`, subject: 'Quoted', text: 'Agreed.\n\nOn Tue, Bob wrote:\n> the plan\n' });
  const [quoted] = await latest(realm.member, [{ operator: 'channel', operand: 'mailbox' }, { operator: 'topic', operand: 'Quoted' }]);
  expect(quoted!.content).toBe('Agreed.\n\nOn Tue, Bob wrote:\n> the plan');
});

it('posts mail to a private channel as the Email Gateway bot, as far as the address creator may post there', async () => {
  const made = await api('POST', '/users/me/subscriptions', realm.owner, { subscriptions: [{ name: 'secret plans' }], invite_only: true, principals: [realm.owner.id, realm.member.id] });
  expect(made.result).toBe('success');
  const id = (await api('GET', '/get_stream_id', realm.owner, { stream: 'secret plans' })).stream_id;
  const address = (await api('GET', `/streams/${id}/email_address`, realm.owner)).email as string;
  expect(address).toMatch(/^secret-plans\./);
  await send({ from: 'dave@outside.test', to: address, subject: 'Fwd: the plan', text: 'See below.\n\n---------- Forwarded message ---------\nFrom: Eve\n> step one' });
  const [posted] = await latest(realm.member, [{ operator: 'channel', operand: 'secret plans' }, { operator: 'topic', operand: 'the plan' }]);
  // A forward keeps its quoted part unless the address says otherwise (the family's default).
  expect([posted!.sender_full_name, posted!.content]).toEqual(['Email Gateway', 'From: dave@outside.test\nSee below.\n\n---------- Forwarded message ---------\nFrom: Eve\n> step one']);

  // Once the creator leaves the channel, the address no longer posts there.
  expect((await api('DELETE', '/users/me/subscriptions', realm.owner, { subscriptions: ['secret plans'] })).result).toBe('success');
  const r = await refusal({ from: 'dave@outside.test', to: address, subject: 'again', text: 'x' });
  expect(r.code).toBe(550);
  expect(r.text).toMatch(/Not authorized to send to channel 'secret plans'/);
});

it('posts a reply to a missed-message address in its conversation as the person it was for, once', async () => {
  const dm = await createMissedMessageAddress(env.db, { realmId: realm.realmId, userId: realm.member.id, conversation: { type: 'direct', userIds: [realm.member2.id, realm.member.id] } }, DOMAIN);
  expect(dm).toMatch(/^mm[0-9a-f]{32}@mail\.chat\.test$/);
  await send({ from: realm.member.email, to: dm, subject: 'Re: lunch?', text: 'Sure, noon works.\n\nOn Wed, Member Two wrote:\n> lunch?\n' });
  const [reply] = await latest(realm.member2, [{ operator: 'dm', operand: [realm.member.id] }]);
  expect([reply!.sender_id, reply!.content]).toEqual([realm.member.id, 'Sure, noon works.']);

  // Single use: the second mail is refused while the sender's server is still talking.
  const again = await refusal({ from: realm.member.email, to: dm, subject: 'Re: lunch?', text: 'And again.' });
  expect(again.code).toBe(550);
  expect(again.text).toMatch(/already been used/);

  const topic = await createMissedMessageAddress(env.db, { realmId: realm.realmId, userId: realm.member.id, conversation: { type: 'channel', channelId, topic: 'deploys' } }, DOMAIN);
  await send({ from: realm.member.email, to: topic, subject: 'whatever the subject', text: 'Deployed.' });
  const [inTopic] = await latest(realm.owner, [{ operator: 'channel', operand: 'mailbox' }, { operator: 'topic', operand: 'deploys' }]);
  expect([inTopic!.sender_id, inTopic!.content]).toEqual([realm.member.id, 'Deployed.']);
});

it('lets an offline person answer a missed-message email from their mail program, the answer posted in the conversation', async () => {
  const { member, member2 } = realm;
  expect((await api('PATCH', '/settings', member, { email_notifications_batching_period_seconds: 1 })).result).toBe('success');
  const sent = await api('POST', '/messages', member2, { type: 'direct', to: [member.id], content: 'Are you coming to the review at three?' });
  expect(sent.result).toBe('success');
  const until = Date.now() + 90_000;
  let notice: ParsedMail | undefined;
  while (!(notice = relay.received.find((r) => r.rcpt === member.email && r.mail.text?.includes('review at three'))?.mail)) {
    if (Date.now() > until) throw new Error('no missed-message email arrived');
    await new Promise((r) => setTimeout(r, 200));
  }
  const replyTo = notice.replyTo?.value[0]?.address;
  expect(replyTo).toMatch(/^mm[0-9a-f]{32}@mail\.chat\.test$/);
  // Answered as a mail program does: to the Reply-To, the notice quoted below the answer.
  const quoted = (notice.text ?? '').split('\n').map((l) => `> ${l}`).join('\n');
  await send({ from: member.email, to: replyTo, subject: `Re: ${notice.subject}`, inReplyTo: notice.messageId, text: `Yes, I will be there.\n\nOn Sat, ${member2.fullName} wrote:\n${quoted}\n` });
  const [answer] = await latest(member2, [{ operator: 'dm', operand: [member.id] }]);
  expect([answer!.sender_id, answer!.content]).toEqual([member.id, 'Yes, I will be there.']);
});

it('refuses unknown, expired and foreign addresses at RCPT TO with 550', async () => {
  const expired = await createMissedMessageAddress(env.db, { realmId: realm.realmId, userId: realm.member.id, conversation: { type: 'direct', userIds: [realm.member2.id] } }, DOMAIN);
  await env.db.missedMessageEmailAddress.update({ where: { emailToken: expired.split('@')[0] }, data: { timestamp: new Date(Date.now() - 6 * 24 * 3600 * 1000) } });
  const cases: Array<[string, RegExp]> = [
    [expired, /expired/],
    [`mm${'0'.repeat(32)}@${DOMAIN}`, /invalid/],
    [`mailbox.${'f'.repeat(32)}@${DOMAIN}`, /Bad channel token/],
    [`nobody@${DOMAIN}`, /not recognized/],
    [`mm${'1'.repeat(32)}@elsewhere.test`, /not recognized/],
  ];
  for (const [to, why] of cases) {
    const r = await refusal({ from: 'x@outside.test', to, subject: 's', text: 't' });
    expect([to, r.code]).toEqual([to, 550]);
    expect(r.text).toMatch(why);
  }
});

it('refuses an oversize mail with 552 and a sender over its limit with 550', async () => {
  const address = (await api('GET', `/streams/${channelId}/email_address`, realm.owner)).email as string;
  const big = await refusal({ from: 'big@outside.test', to: address, subject: 'big', text: 'x'.repeat(300_000) });
  expect(big.code).toBe(552);
  for (let i = 0; i < 4; i++) await send({ from: 'busy@outside.test', to: address, subject: 'busy', text: `mail ${i}` });
  const limited = await refusal({ from: 'busy@outside.test', to: address, subject: 'busy', text: 'one too many' });
  expect(limited.code).toBe(550);
  expect(limited.text).toMatch(/Rate limit/);
  const posted = await latest(realm.member, [{ operator: 'channel', operand: 'mailbox' }, { operator: 'topic', operand: 'busy' }], 10);
  expect(posted.map((m) => m.content)).toEqual(['From: busy@outside.test\nmail 0', 'From: busy@outside.test\nmail 1', 'From: busy@outside.test\nmail 2', 'From: busy@outside.test\nmail 3']);
  expect(await latest(realm.member, [{ operator: 'channel', operand: 'mailbox' }, { operator: 'topic', operand: 'big' }])).toEqual([]);

  // What the listener did is on its replica's metrics: every mail of this file so far.
  const scrape = await (await fetch(`${listener.metricsUrl}/metrics`)).text();
  const count = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)$`, 'm').exec(scrape)?.[1]);
  expect(count('messaging_inbound_mail_posted_total')).toBe(13);
  expect(count('messaging_inbound_mail_refused_total')).toBeGreaterThanOrEqual(8);
  expect(count('messaging_inbound_mail_deferred_total')).toBe(0);
});

it('makes topics and trims footers as the family does', () => {
  expect(topicOfSubject('RE: Fwd: [ops] disk full')).toBe('[ops] disk full');
  expect(topicOfSubject('')).toBe('Email with no subject');
  expect(topicOfSubject('a'.repeat(80))).toBe(`${'a'.repeat(57)}...`);
  expect(withoutFooter('body\n--\nsig')).toBe('body');
  // Two separators: nothing is cut, the structure is not a plain footer.
  expect(withoutFooter('a\n--\nb\n--\nc')).toBe('a\n--\nb\n--\nc');
});
