import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRedis, keyspace, OutboxRelay } from '@chat/bus';
import { BOT_TYPE, ROLE } from '@chat/contracts';
import { DEFAULT_STREAM_PARTITIONS } from '@chat/kit';
import { doCreateUserInTx } from '@chat/realm';
import { parseNetworks } from '../lib/outbound';
import { pythonRepr } from '../workers/outgoing-webhooks/notices';
import { postGuarded } from '../workers/outgoing-webhooks/post';
import { startHarness, type Harness } from './support';

/**
 * Outgoing-webhook bots end to end inside the messaging service: a message is sent through the
 * API, the outbox relay publishes it, the service's consumer group notices the bot and its
 * BullMQ worker posts to a bot service listening on this machine (a stand-in checking the
 * family's request shapes), then the answer or the failure is posted back.
 */
let h: Harness;
let relay: OutboxRelay;
let redis: ReturnType<typeof createRedis>;
let server: http.Server;
let base: string;
let channel: number;
/** Every bot of the file, made before the first message (the consumer reads its list of bots at most 2 s old). */
const bots: Record<string, Awaited<ReturnType<typeof makeBot>>> = {};

interface Received {
  path: string;
  contentType: string;
  userAgent: string;
  body: Record<string, any>;
}
const received: Received[] = [];

/** The stand-in bot service: each path answers the way one kind of bot (or broken bot) does. */
function botService(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
  const contentType = String(req.headers['content-type']);
  const body = contentType.startsWith('application/json') ? JSON.parse(raw) : Object.fromEntries(new URLSearchParams(raw));
  received.push({ path: req.url!, contentType, userAgent: String(req.headers['user-agent']), body });
  const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  switch (req.url) {
    case '/echo':
      return json(200, { content: `echo: ${body.data}` });
    case '/slack':
      return json(200, { text: `slack: ${body.text}` });
    case '/quiet':
      return json(200, { response_not_required: true });
    case '/broken':
      return res.writeHead(500, { 'content-type': 'text/plain' }).end("boom 'it' broke");
    case '/nul':
      return json(200, { content: 'a\u0000b' });
    case '/notjson':
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('hello there');
    case '/slow':
      return; // never answers: the request times out
    default:
      return json(404, {});
  }
}

const config = {
  CONSUMER_NAME: 'outgoing-test',
  OUTGOING_WEBHOOK_TIMEOUT_SECONDS: '1',
  OUTGOING_WEBHOOK_RETRIES: '1',
  OUTGOING_WEBHOOK_RETRY_DELAY_MS: '50',
  // IPv4 loopback only: the stand-in listens there, and [::1] stays refused.
  OUTGOING_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => botService(req, res, raw));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h = await startHarness(config);
  await h.env.db.$executeRawUnsafe('DELETE FROM outbox');
  redis = createRedis(h.env.redisUrl, { name: 'outgoing-test' });
  relay = new OutboxRelay({ databaseUrl: h.env.databaseUrl, redis, keys: keyspace(h.env.prefix, { partitions: DEFAULT_STREAM_PARTITIONS }), pollIntervalMs: 50, onError: () => undefined });
  relay.start();
  channel = await h.createStream(h.realm.owner, { name: 'bots' }, [h.realm.owner, h.realm.member]);
  const port = (server.address() as AddressInfo).port;
  const made: Array<[string, string, number?]> = [
    ['Echo', `${base}/echo`],
    ['Slacker', `${base}/slack`, 2],
    ['Quiet', `${base}/quiet`],
    ['Garbled', `${base}/notjson`],
    ['Nully', `${base}/nul`],
    ['Slow', `${base}/slow`],
    ['Broken', `${base}/broken`],
    ['Metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['Sixer', `http://[::1]:${port}/echo`],
  ];
  for (const [name, url, iface] of made) bots[name] = await makeBot(name, url, iface);
}, 120_000);

afterAll(async () => {
  await relay?.stop();
  redis?.disconnect();
  await h?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

/** An outgoing-webhook bot of the member, as the users service makes one. */
async function makeBot(name: string, url: string, iface = 1) {
  return h.env.db.$transaction(async (tx) => {
    const local = name.toLowerCase();
    const bot = await doCreateUserInTx(tx, {
      realmId: h.realm.realmId,
      email: `${local}-bot@chat.test`,
      fullName: name,
      role: ROLE.MEMBER,
      isBot: true,
      botType: BOT_TYPE.OUTGOING_WEBHOOK,
      botOwnerId: h.realm.member.id,
      announce: false,
    });
    const service = await tx.botService.create({ data: { botId: bot.id, name: local, baseUrl: url, interface: iface, token: `token-of-${local}` } });
    return { ...bot, token: service.token };
  });
}

async function send(params: Record<string, string>): Promise<number> {
  const res = await h.api.post('/api/v1/messages').set(h.as(h.realm.member)).type('form').send(params);
  expect(res.body).toMatchObject({ result: 'success' });
  return res.body.id as number;
}

/** The bot's messages once there are `count`, oldest first, with their recipients. */
async function botMessages(botId: number, count: number, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await h.env.db.message.findMany({ where: { senderId: botId }, orderBy: { id: 'asc' }, include: { userMessages: true } });
    if (rows.length >= count) return rows.map((m) => ({ ...m, recipients: m.userMessages.map((u) => u.userId).sort((a, b) => a - b) }));
    if (Date.now() > until) throw new Error(`bot ${botId}: ${rows.length} messages, not ${count}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const requestsTo = (path: string) => received.filter((r) => r.path === path);
const ownerNoticeStart = (name: string, messageUrl: string) => `[A message](${messageUrl}) to your bot @_**${name}** triggered an outgoing webhook.`;

it('posts the family\'s payload on a mention and answers in the same topic', async () => {
  const bot = bots.Echo!;
  const id = await send({ type: 'stream', to: 'bots', topic: 'greetings', content: '@**Echo** hello *there*' });
  const [reply] = await botMessages(bot.id, 1);
  expect(reply).toMatchObject({ streamId: channel, topic: 'greetings', content: 'echo: @**Echo** hello *there*' });
  const [req] = requestsTo('/echo');
  expect(req!.contentType).toBe('application/json');
  expect(req!.userAgent).toMatch(/OutgoingWebhook/);
  expect(req!.body).toMatchObject({
    data: '@**Echo** hello *there*',
    token: 'token-of-echo',
    bot_email: 'echo-bot@chat.test',
    bot_full_name: 'Echo',
    trigger: 'mention',
    message: {
      id,
      type: 'stream',
      stream_id: channel,
      display_recipient: 'bots',
      subject: 'greetings',
      content: '@**Echo** hello *there*',
      content_type: 'text/x-markdown',
      sender_id: h.realm.member.id,
      sender_email: h.realm.member.email,
    },
  });
  expect(req!.body.message.rendered_content).toContain(`data-user-id="${bot.id}"`);

  // A direct message triggers it too, and the answer goes to the same conversation.
  await send({ type: 'direct', to: JSON.stringify([bot.id]), content: 'ping' });
  const [, dm] = await botMessages(bot.id, 2);
  expect(dm).toMatchObject({ recipientType: 'private', content: 'echo: ping' });
  expect(dm!.recipients).toEqual([bot.id, h.realm.member.id].sort((a, b) => a - b));
  expect(requestsTo('/echo')[1]!.body).toMatchObject({ trigger: 'direct_message', data: 'ping', message: { type: 'private' } });

  // A silent mention calls nobody (the owner notices use one).
  await send({ type: 'stream', to: 'bots', topic: 'greetings', content: '@_**Echo** quietly' });
  await send({ type: 'direct', to: JSON.stringify([bot.id]), content: 'after' });
  await botMessages(bot.id, 3);
  expect(requestsTo('/echo').map((r) => r.body.data)).toEqual(['@**Echo** hello *there*', 'ping', 'after']);
}, 60_000);

it('speaks Slack\'s outgoing-webhook format, which has no direct messages', async () => {
  const bot = bots.Slacker!;
  await send({ type: 'stream', to: 'bots', topic: 'slack', content: '@**Slacker** deploy' });
  const [reply] = await botMessages(bot.id, 1);
  expect(reply).toMatchObject({ streamId: channel, topic: 'slack', content: 'slack: @**Slacker** deploy' });
  const [req] = requestsTo('/slack');
  expect(req!.contentType).toBe('application/x-www-form-urlencoded');
  expect(req!.body).toEqual({
    token: 'token-of-slacker',
    team_id: `T${h.realm.realmId}`,
    team_domain: '127.0.0.1:9991',
    channel_id: `C${channel}`,
    channel_name: 'bots',
    thread_ts: expect.stringMatching(/^\d+$/),
    timestamp: expect.stringMatching(/^\d+$/),
    user_id: `U${h.realm.member.id}`,
    user_name: h.realm.member.fullName,
    text: '@**Slacker** deploy',
    trigger_word: 'mention',
    service_id: String(bot.id),
  });
  await send({ type: 'direct', to: JSON.stringify([bot.id]), content: 'hi' });
  const [, refusal] = await botMessages(bot.id, 2);
  expect(refusal).toMatchObject({ recipientType: 'private', content: "Failure! Slack outgoing webhooks don't support direct messages." });
  expect(requestsTo('/slack')).toHaveLength(1);
}, 60_000);

it('stays silent when no response is required, and reports unreadable answers', async () => {
  const quiet = bots.Quiet!;
  const chatty = bots.Garbled!;
  await send({ type: 'stream', to: 'bots', topic: 'misc', content: '@**Quiet** @**Garbled** hi' });
  const [failure, notice] = await botMessages(chatty.id, 2);
  expect(failure).toMatchObject({ streamId: channel, topic: 'misc', content: 'Failure! Invalid JSON in response' });
  expect(notice!.recipients).toEqual([chatty.id, h.realm.member.id].sort((a, b) => a - b));
  expect(notice!.content).toContain('to your bot @_**Garbled** triggered an outgoing webhook.\nThe outgoing webhook server attempted to send a message, but that request resulted in the following error:\n> Invalid JSON in response');
  expect(notice!.content).toContain("```\n'hello there'\n```");
  expect(requestsTo('/quiet')).toHaveLength(1);
  expect(await h.env.db.message.count({ where: { senderId: quiet.id } })).toBe(0);

  // A reply the send refuses is reported the same way, and not retried.
  const nully = bots.Nully!;
  await send({ type: 'stream', to: 'bots', topic: 'misc', content: '@**Nully** hi' });
  const [refused, told] = await botMessages(nully.id, 2);
  expect(refused!.content).toBe('Failure! Message must not contain null bytes');
  expect(told!.content).toContain('resulted in the following error:\n> Message must not contain null bytes\nThe response contains the following payload:');
  expect(requestsTo('/nul')).toHaveLength(1);
}, 60_000);

it('retries a bot that does not answer in time, then reports it unavailable to the conversation and its owner', async () => {
  const bot = bots.Slow!;
  const id = await send({ type: 'stream', to: 'bots', topic: 'waiting', content: '@**Slow** are you there' });
  const [failure, notice] = await botMessages(bot.id, 2, 20_000);
  expect(requestsTo('/slow')).toHaveLength(2); // the try and OUTGOING_WEBHOOK_RETRIES=1 retry
  expect(failure).toMatchObject({ streamId: channel, topic: 'waiting', content: 'Failure! Bot is unavailable' });
  expect(notice!.recipientType).toBe('private');
  expect(notice!.recipients).toEqual([bot.id, h.realm.member.id].sort((a, b) => a - b));
  const url = `http://127.0.0.1:9991/#narrow/channel/${channel}-bots/topic/waiting/near/${id}`;
  expect(notice!.content).toBe(`${ownerNoticeStart('Slow', url)}\nRequest timed out after 1 seconds.`);
}, 60_000);

it('reports an error status at once, with the answer, without retrying', async () => {
  const bot = bots.Broken!;
  const id = await send({ type: 'stream', to: 'bots', topic: 'oops', content: '@**Broken** go' });
  const [failure, notice] = await botMessages(bot.id, 2);
  expect(failure).toMatchObject({ topic: 'oops', content: 'Failure! Third party responded with 500' });
  const url = `http://127.0.0.1:9991/#narrow/channel/${channel}-bots/topic/oops/near/${id}`;
  expect(notice!.content).toBe(
    `${ownerNoticeStart('Broken', url)}\nThe webhook got a response with status code *500*.\nThe response contains the following payload:\n\`\`\`\nb"boom 'it' broke"\n\`\`\``,
  );
  await new Promise((r) => setTimeout(r, 500));
  expect(requestsTo('/broken')).toHaveLength(1);
}, 60_000);

it('refuses private, loopback and link-local addresses the operator did not allow', async () => {
  const port = (server.address() as AddressInfo).port;
  const metadata = bots.Metadata!;
  const loopback6 = bots.Sixer!;
  const before = received.length;
  await send({ type: 'stream', to: 'bots', topic: 'guard', content: '@**Metadata** @**Sixer** leak' });
  for (const bot of [metadata, loopback6]) {
    const [failure, notice] = await botMessages(bot.id, 2);
    expect(failure!.content).toBe('Failure! Third party responded with 407');
    expect(notice!.content).toMatch(/triggered an outgoing webhook\.\nThe URL configured for the webhook is for a private or disallowed network\.$/);
  }
  expect(received.length).toBe(before);

  // A name is checked on every address it resolves to, inside the connection's own lookup.
  const post = (allowed: string) =>
    postGuarded(`http://localhost:${port}/echo`, { body: '{"data":"x"}', contentType: 'application/json', timeoutMs: 2000, allowedNetworks: parseNetworks(allowed), maxBytes: 1024, userAgent: 't' });
  await expect(post('')).rejects.toMatchObject({ kind: 'refused' });
  await expect(post('10.0.0.0/8')).rejects.toMatchObject({ kind: 'refused' });
  await expect(post('127.0.0.0/8,::1/128')).resolves.toMatchObject({ status: 200 });
}, 60_000);

it('shows answers as the family does (Python\'s repr)', () => {
  expect(pythonRepr('plain', true)).toBe("b'plain'");
  expect(pythonRepr("it's", false)).toBe('"it\'s"');
  expect(pythonRepr('a\nb\\é', true)).toBe("b'a\\nb\\\\\\xc3\\xa9'");
});
