/**
 * Incoming webhooks through the whole cluster (docs/integrations.md): bots created through the
 * users service with their integration and secret, the gateway authenticating the URL's
 * `api_key` (or HTTP Basic), the messaging service posting as the bot. Every integration's
 * fixtures (e2e/webhooks/fixtures, payloads as the providers document them) are posted and the
 * topic and Markdown of what arrives are checked (e2e/webhooks/cases); then the framework's
 * rules: direct messages to the owner, event filters, one notice per unhandled event, GitHub's
 * signature, and the error answers.
 */
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import { client } from './lib/event-queues';
import type { WebhookCase } from './webhooks/case';

let env: TestEnv;
let realm: SeededRealm;
let cluster: Cluster;
const call = client(() => cluster.url);
const FIXTURES = path.join(__dirname, 'webhooks/fixtures');
const CHANNEL = 'integrations';
const SECRET = 'It is a secret to everybody';

interface Bot extends SeededUser {
  name: string;
}
/** One incoming-webhook bot per integration (GitHub's with a secret), owned by the realm's owner. */
const bots = new Map<string, Bot>();

async function createBot(shortName: string, serviceName?: string, config?: Record<string, string>): Promise<Bot> {
  const made = await call('POST', '/bots', realm.owner, {
    full_name: `${shortName} bot`, short_name: shortName, bot_type: '2',
    ...(serviceName ? { service_name: serviceName } : {}),
    ...(config ? { config_data: config } : {}),
  });
  expect(made.body).toMatchObject({ result: 'success' });
  const user = await call('GET', `/users/${made.body.user_id}`, realm.owner);
  return { ...realm.bot, id: made.body.user_id, apiKey: made.body.api_key, email: user.body.user.email, name: `${shortName} bot` };
}

const fixture = (integration: string, name: string) => readFileSync(path.join(FIXTURES, integration, `${name}.json`));

/** Posts a body to /api/v1/external/<name> as a provider would: the key in the URL, JSON. */
async function hook(name: string, body: Buffer | string, opts: { key?: string | null; query?: Record<string, string>; headers?: Record<string, string> } = {}) {
  const query = new URLSearchParams({ ...(opts.key !== null ? { api_key: opts.key ?? bots.get(name)!.apiKey } : {}), ...opts.query });
  const res = await fetch(`${cluster.url}/api/v1/external/${name}?${query}`, {
    // A copy as a Uint8Array: the DOM's BodyInit (this program has the DOM for page functions) takes no Buffer.
    method: 'POST', headers: { 'content-type': 'application/json', ...opts.headers }, body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** Messages the bot sent after `afterId`, oldest first, as raw Markdown. */
async function sentBy(bot: Bot, afterId: number, narrow: unknown[] = [{ operator: 'sender', operand: bot.id }]) {
  const res = await call('GET', '/messages', realm.owner, { anchor: 'newest', num_before: 50, num_after: 0, narrow, apply_markdown: false });
  expect(res.body.result).toBe('success');
  return (res.body.messages as Array<Record<string, any>>).filter((m) => m.id > afterId);
}

async function lastMessageId(): Promise<number> {
  const res = await call('GET', '/messages', realm.owner, { anchor: 'newest', num_before: 1, num_after: 0, narrow: [] });
  return res.body.messages.at(-1)?.id ?? 0;
}

/** The notification bot's direct messages to the owner after `afterId`. */
async function noticesAfter(afterId: number): Promise<string[]> {
  const res = await call('GET', '/messages', realm.owner, { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }], apply_markdown: false });
  return (res.body.messages as Array<Record<string, any>>).filter((m) => m.id > afterId && /notification/i.test(m.sender_full_name)).map((m) => m.content);
}

const caseFiles = readdirSync(path.join(__dirname, 'webhooks/cases')).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, ''));

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  cluster = await startCluster(env, { readyTimeoutMs: 180_000 });
  const made = await call('POST', '/users/me/subscriptions', realm.owner, { subscriptions: [{ name: CHANNEL }] });
  expect(made.body.result).toBe('success');
  for (const name of caseFiles) {
    bots.set(name, await createBot(name.replace(/_/g, '-'), name, name in SIGNED ? { secret: SECRET } : undefined));
  }
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await env?.close();
});

const sign = (body: Buffer | string, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The integrations whose bots have a secret, and how their provider sends it with a body. */
const SIGNED: Record<string, (body: Buffer) => Record<string, string>> = {
  github: (body) => ({ 'X-Hub-Signature-256': sign(body) }),
  gitlab: () => ({ 'X-Gitlab-Token': SECRET }),
  sentry: (body) => ({ 'Sentry-Hook-Signature': sign(body).slice('sha256='.length) }),
  circleci: (body) => ({ 'circleci-signature': `v1=${sign(body).slice('sha256='.length)}` }),
};

describe.each(caseFiles)('the %s integration', (integration) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { cases } = require(`./webhooks/cases/${integration}`) as { cases: WebhookCase[] };
  it.each(cases.map((c) => [c.fixture + (c.query ? ` ${JSON.stringify(c.query)}` : ''), c] as const))('posts %s', async (_name, c) => {
    const bot = bots.get(integration)!;
    const body = fixture(integration, c.fixture);
    const before = await lastMessageId();
    // Signing providers' bots have a secret: every request carries it as the provider sends it.
    const headers = { ...c.headers, ...SIGNED[integration]?.(body) };
    const res = await hook(integration, body, { query: { stream: CHANNEL, ...c.query }, headers });
    if (c.error) {
      expect(res).toMatchObject({ status: 400, body: { result: 'error', msg: c.error } });
      return;
    }
    expect(res).toMatchObject({ status: 200, body: { result: 'success' } });
    if (c.unsupported) expect(res.body.msg).toBe(c.unsupported);
    if (c.caller) expect(res.body).toMatchObject({ full_name: bot.name, email: bot.email, id: bot.id });
    const sent = await sentBy(bot, before);
    expect(sent.map((m) => ({ stream: m.display_recipient, topic: m.subject, content: m.content }))).toEqual(
      (c.messages ?? []).map((m) => ({ stream: CHANNEL, topic: m.topic, content: m.content })),
    );
  });
});

describe('the framework', () => {
  const ping = () => fixture('github', 'ping');
  const github = (opts: Parameters<typeof hook>[2] = {}) =>
    hook('github', ping(), { ...opts, headers: { 'X-GitHub-Event': 'ping', 'X-Hub-Signature-256': sign(ping()), ...opts.headers } });

  it('sends a direct message to the bot owner when the URL names no channel', async () => {
    const before = await lastMessageId();
    expect((await hook('zapier', fixture('zapier', 'message'))).body.result).toBe('success');
    const [dm] = await sentBy(bots.get('zapier')!, before);
    expect(dm).toMatchObject({ type: 'private', content: '**Jane Doe** (jane@example.com) signed up for the *Pro* plan.' });
    expect(dm.display_recipient.map((r: any) => r.id).sort()).toEqual([bots.get('zapier')!.id, realm.owner.id].sort());
  });

  it('takes the channel by id, and HTTP Basic instead of the api_key parameter', async () => {
    const id = (await call('GET', '/get_stream_id', realm.owner, { stream: CHANNEL })).body.stream_id;
    const bot = bots.get('ifttt')!;
    const before = await lastMessageId();
    const res = await fetch(`${cluster.url}/api/v1/external/ifttt?stream=${id}&topic=by%20id`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${bot.email}:${bot.apiKey}`).toString('base64')}` },
      body: fixture('ifttt', 'message'),
    });
    expect(res.status).toBe(200);
    expect((await sentBy(bot, before)).map((m) => [m.display_recipient, m.subject])).toEqual([[CHANNEL, 'by id']]);
  });

  it("reads a payload sent as a form's payload field (GitHub's form content type, Slack scripts)", async () => {
    const form = (payload: string) => new URLSearchParams({ payload }).toString();
    const githubBody = form(ping().toString());
    const before = await lastMessageId();
    const res = await hook('github', githubBody, {
      query: { stream: CHANNEL, topic: 'form' },
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'X-GitHub-Event': 'ping', 'X-Hub-Signature-256': sign(githubBody) },
    });
    expect(res.status).toBe(200);
    const slack = await hook('slack_incoming', form(JSON.stringify({ text: 'Deployed *v2* to <https://example.com/prod|production>' })), {
      query: { stream: CHANNEL, topic: 'form' }, headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(slack.status).toBe(200);
    const sent = [...(await sentBy(bots.get('github')!, before)), ...(await sentBy(bots.get('slack_incoming')!, before))];
    expect(sent.map((m) => [m.subject, m.content])).toEqual([
      ['form', 'GitHub webhook has been successfully configured by Codertocat.'],
      ['form', 'Deployed **v2** to [production](https://example.com/prod)'],
    ]);
  });

  it('filters events with only_events and exclude_events (shell patterns)', async () => {
    const bot = bots.get('github')!;
    const before = await lastMessageId();
    expect((await github({ query: { stream: CHANNEL, only_events: '["push","pull_*"]' } })).status).toBe(200);
    expect((await github({ query: { stream: CHANNEL, exclude_events: '["p?ng"]' } })).status).toBe(200);
    expect(await sentBy(bot, before)).toEqual([]);
    expect((await github({ query: { stream: CHANNEL, only_events: '["ping"]' } })).status).toBe(200);
    expect(await sentBy(bot, before)).toHaveLength(1);
    expect((await github({ query: { only_events: 'push' } })).body).toMatchObject({ result: 'error', msg: 'Argument "only_events" is not valid JSON.' });
  });

  it('checks GitHub signatures against the secret configured on the bot', async () => {
    const bad = await github({ query: { stream: CHANNEL }, headers: { 'X-Hub-Signature-256': sign(ping(), 'another secret') } });
    expect(bad).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_REQUEST', msg: 'Webhook signature verification failed.' } });
    const missing = await hook('github', ping(), { query: { stream: CHANNEL }, headers: { 'X-GitHub-Event': 'ping' } });
    expect(missing.body.msg).toBe('Webhook signature verification failed.');
    // The body signed is the body sent: one byte more and the signature no longer holds.
    const tampered = await hook('github', Buffer.concat([ping(), Buffer.from(' ')]), { query: { stream: CHANNEL }, headers: { 'X-GitHub-Event': 'ping', 'X-Hub-Signature-256': sign(ping()) } });
    expect(tampered.body.msg).toBe('Webhook signature verification failed.');
    expect((await github({ query: { stream: CHANNEL } })).status).toBe(200);
    // A GitHub bot with no secret takes unsigned requests.
    const open = await createBot('github-open', 'github');
    expect((await hook('github', ping(), { key: open.apiKey, query: { stream: CHANNEL }, headers: { 'X-GitHub-Event': 'ping' } })).status).toBe(200);
  });

  it("checks GitLab's secret token and needs its event header", async () => {
    const body = fixture('gitlab', 'tag_push_hook');
    const send = (headers: Record<string, string>) => hook('gitlab', body, { query: { stream: CHANNEL }, headers });
    expect(await send({ 'X-Gitlab-Event': 'Tag Push Hook', 'X-Gitlab-Token': 'not the secret' })).toMatchObject({
      status: 400, body: { result: 'error', msg: 'Webhook signature verification failed.' },
    });
    expect((await send({ 'X-Gitlab-Event': 'Tag Push Hook' })).body.msg).toBe('Webhook signature verification failed.');
    expect(await send({ 'X-Gitlab-Token': SECRET })).toMatchObject({
      status: 400, body: { result: 'error', code: 'MISSING_HTTP_EVENT_HEADER', msg: "Missing the HTTP event header 'X-Gitlab-Event'" },
    });
    // A note on something GitLab may add one day is the family's unsupported event, not an error.
    const note = JSON.stringify({ ...JSON.parse(fixture('gitlab', 'note_hook__issue').toString()), object_attributes: { noteable_type: 'Epic' } });
    expect((await hook('gitlab', note, { query: { stream: CHANNEL }, headers: { 'X-Gitlab-Event': 'Note Hook', 'X-Gitlab-Token': SECRET } })).body.msg)
      .toBe("The 'Note Hook Epic' event isn't currently supported by the GitLab webhook; ignoring");
  });

  it("checks Sentry's signature with the client secret", async () => {
    const body = fixture('sentry', 'issue__resolved');
    const send = (headers: Record<string, string>, sent: Buffer | string = body) =>
      hook('sentry', sent, { query: { stream: CHANNEL }, headers: { 'Sentry-Hook-Resource': 'issue', ...headers } });
    const wrong = await send({ 'Sentry-Hook-Signature': sign(body, 'another secret').slice('sha256='.length) });
    expect(wrong).toMatchObject({ status: 400, body: { result: 'error', msg: 'Webhook signature verification failed.' } });
    expect((await send({})).body.msg).toBe('Webhook signature verification failed.');
    const tampered = Buffer.from(body.toString().replace('Meredith Heller', 'Someone Else'));
    expect((await send({ 'Sentry-Hook-Signature': sign(body).slice('sha256='.length) }, tampered)).body.msg).toBe('Webhook signature verification failed.');
    const before = await lastMessageId();
    expect((await send({ 'Sentry-Hook-Signature': sign(body).slice('sha256='.length) })).status).toBe(200);
    expect(await sentBy(bots.get('sentry')!, before)).toHaveLength(1);
  });

  it("checks CircleCI's v1 signature", async () => {
    const body = fixture('circleci', 'workflow_completed');
    const v1 = (secret?: string) => `v1=${sign(body, secret).slice('sha256='.length)}`;
    const send = (signature?: string) => hook('circleci', body, {
      query: { stream: CHANNEL }, headers: { 'Circleci-Event-Type': 'workflow-completed', ...(signature ? { 'circleci-signature': signature } : {}) },
    });
    expect((await send(v1('another secret'))).body).toMatchObject({ result: 'error', msg: 'Webhook signature verification failed.' });
    expect((await send()).body.msg).toBe('Webhook signature verification failed.');
    // The header may list other schemes beside v1.
    expect((await send(`v2=abc,${v1()}`)).status).toBe(200);
  });

  it('answers an unhandled event in the family words and tells the owner once', async () => {
    // A bot of its own: the GitHub cases above already met this event.
    const bot = await createBot('github-notices', 'github');
    const before = await lastMessageId();
    const opts = { key: bot.apiKey, query: { stream: CHANNEL }, headers: { 'X-GitHub-Event': 'member' } };
    for (let i = 0; i < 2; i++) {
      expect(await hook('github', fixture('github', 'member'), opts)).toMatchObject({
        status: 200, body: { result: 'success', msg: "The 'member' event isn't currently supported by the GitHub webhook; ignoring" },
      });
    }
    const notices = (await noticesAfter(before)).filter((t) => t.includes("'member'"));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(`@_**${bot.name}|${bot.id}**`);
  });

  it('refuses a GitHub request without its event header, telling the owner once', async () => {
    const before = await lastMessageId();
    for (let i = 0; i < 2; i++) {
      expect(await hook('github', ping(), { query: { stream: CHANNEL }, headers: { 'X-Hub-Signature-256': sign(ping()) } })).toMatchObject({
        status: 400, body: { result: 'error', code: 'MISSING_HTTP_EVENT_HEADER', msg: "Missing the HTTP event header 'X-GitHub-Event'", header: 'X-GitHub-Event' },
      });
    }
    expect((await noticesAfter(before)).filter((t) => t.includes('X-GitHub-Event'))).toHaveLength(1);
  });

  it('tells the owner once of a channel that does not exist, and posts nothing', async () => {
    const before = await lastMessageId();
    for (let i = 0; i < 2; i++) expect((await hook('ifttt', fixture('ifttt', 'message'), { query: { stream: 'nowhere' } })).status).toBe(200);
    expect((await noticesAfter(before)).filter((t) => t.includes('#**nowhere**'))).toHaveLength(1);
    expect(await sentBy(bots.get('ifttt')!, before)).toEqual([]);
  });

  it('answers bad requests with the envelope, never a 500', async () => {
    expect(await hook('json', '{"not json', { query: { stream: CHANNEL } })).toMatchObject({ status: 400, body: { result: 'error', msg: 'Malformed JSON' } });
    expect(await hook('json', '', { query: { stream: CHANNEL } })).toMatchObject({ status: 400, body: { result: 'error', msg: 'Malformed JSON' } });
    // A payload missing what the integration reads names the field.
    const noAlerts = await hook('alertmanager', '{"status":"firing"}', { query: { stream: CHANNEL } });
    expect(noAlerts).toMatchObject({ status: 400, body: { result: 'error', msg: 'payload["alerts"] is missing' } });
    const wrongType = await hook('alertmanager', '{"alerts":[{"status":"firing","labels":"x","generatorURL":5}]}', { query: { stream: CHANNEL } });
    expect(wrongType).toMatchObject({ status: 400, body: { result: 'error' } });
    const body = JSON.stringify({ ref: 'refs/heads/main', commits: 'none' });
    const push = await hook('github', body, { query: { stream: CHANNEL }, headers: { 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': sign(body) } });
    expect(push).toMatchObject({ status: 400, body: { result: 'error' } });
    expect((await hook('zapier', '{"content":"no topic"}', { query: { stream: CHANNEL } })).body.msg).toBe("Topic can't be empty");
  });

  it('authenticates the key and knows its integrations', async () => {
    expect(await hook('json', '{}', { key: null })).toMatchObject({ status: 400, body: { result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'api_key' argument" } });
    expect(await hook('json', '{}', { key: 'x'.repeat(32) })).toMatchObject({ status: 401, body: { result: 'error', code: 'INVALID_API_KEY' } });
    expect(await hook('nonexistent', '{}', { key: bots.get('json')!.apiKey })).toMatchObject({ status: 404, body: { result: 'error' } });
    const get = await fetch(`${cluster.url}/api/v1/external/json?api_key=${bots.get('json')!.apiKey}`);
    expect(get.status).toBe(404);
  });

  it('refuses an unknown integration or configuration key when the bot is created', async () => {
    expect((await call('POST', '/bots', realm.owner, { full_name: 'Nowhere bot', short_name: 'nowhere', bot_type: '2', service_name: 'nope' })).body.msg).toBe("Invalid integration 'nope'.");
    const wrongKey = await call('POST', '/bots', realm.owner, { full_name: 'Secret JSON bot', short_name: 'secret-json', bot_type: '2', service_name: 'json', config_data: { secret: 's' } });
    expect(wrongKey.body).toMatchObject({ result: 'error', msg: "Invalid configuration key 'secret' for the JSON formatter integration" });
  });

  it('lists the integrations in /register with their options', async () => {
    const res = await call('POST', '/register', realm.member, { fetch_event_types: ['realm_incoming_webhook_bots'] });
    const list = res.body.realm_incoming_webhook_bots as Array<Record<string, any>>;
    expect(list.map((i) => i.name)).toEqual([...caseFiles].sort());
    expect(list.find((i) => i.name === 'github')).toMatchObject({
      display_name: 'GitHub',
      config_options: [{ key: 'secret', label: 'Webhook secret', validator: 'check_string' }],
      url_options: [{ key: 'branches' }],
    });
    expect(list.find((i) => i.name === 'github')!.all_event_types).toEqual(expect.arrayContaining(['push', 'pull_request', 'issues', 'release', 'workflow_run']));
    expect(list.find((i) => i.name === 'json')).toEqual({ name: 'json', display_name: 'JSON formatter', all_event_types: null, config_options: [], url_options: [] });
  });
});

describe("this project's Alertmanager configuration", () => {
  const root = path.join(__dirname, '..');
  const config = parse(readFileSync(path.join(root, 'infra/alertmanager/alertmanager.yml'), 'utf8'));
  const rules = parse(readFileSync(path.join(root, 'infra/prometheus/alerts.yml'), 'utf8')).groups.flatMap((g: any) => g.rules);
  const receiver = config.receivers.find((r: any) => r.name === config.route.receiver);
  const webhook = receiver.webhook_configs[0];
  const url = new URL(webhook.url);

  it('is what Prometheus sends its alerts to', () => {
    const prometheus = parse(readFileSync(path.join(root, 'infra/prometheus/prometheus.yml'), 'utf8'));
    expect(prometheus.alerting.alertmanagers[0].static_configs[0].targets).toEqual(['alertmanager:9093']);
    expect(url.pathname).toBe('/api/v1/external/alertmanager');
    expect(webhook.send_resolved).toBe(true);
    // The key is read from a file, never written in the repository.
    expect(webhook.http_config.basic_auth).toEqual({ username: expect.any(String), password_file: expect.any(String) });
    expect(url.searchParams.has('api_key')).toBe(false);
  });

  it('posts a firing and then a resolved alert into its channel', async () => {
    const channel = url.searchParams.get('stream')!;
    expect((await call('POST', '/users/me/subscriptions', realm.owner, { subscriptions: [{ name: channel }] })).body.result).toBe('success');
    const rule = rules.find((r: any) => r.alert === 'OutboxBacklogGrowing');
    const bot = bots.get('alertmanager')!;
    const before = await lastMessageId();
    // What Alertmanager (webhook format version 4) posts for this rule, grouped as the route says.
    const alert = (status: string) => ({
      status,
      labels: { alertname: rule.alert, ...rule.labels },
      annotations: rule.annotations,
      startsAt: '2026-11-28T08:00:00.000Z',
      endsAt: status === 'resolved' ? '2026-11-28T08:20:00.000Z' : '0001-01-01T00:00:00Z',
      generatorURL: `http://prometheus:9090/graph?g0.expr=${encodeURIComponent(rule.expr)}&g0.tab=1`,
      fingerprint: '5c3bd8e8f2a4b1d0',
    });
    const notification = (status: string) => JSON.stringify({
      receiver: receiver.name, status, alerts: [alert(status)],
      groupLabels: Object.fromEntries(config.route.group_by.map((l: string) => [l, rule.alert])),
      commonLabels: { alertname: rule.alert, ...rule.labels }, commonAnnotations: rule.annotations,
      externalURL: 'http://alertmanager:9093', version: '4', groupKey: `{}:{alertname="${rule.alert}"}`, truncatedAlerts: 0,
    });
    // Sent to the configured path and parameters, with HTTP Basic as `basic_auth` sends it (the
    // deployment's bot is this test's bot here).
    const authorization = `Basic ${Buffer.from(`${bot.email}:${bot.apiKey}`).toString('base64')}`;
    for (const status of ['firing', 'resolved']) {
      const res = await fetch(`${cluster.url}${url.pathname}${url.search}`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'Alertmanager/0.27.0', authorization }, body: notification(status),
      });
      expect(res.status).toBe(200);
    }
    const graph = `http://prometheus:9090/graph?g0.expr=${encodeURIComponent(rule.expr)}&g0.tab=0`;
    expect((await sentBy(bot, before)).map((m) => [m.display_recipient, m.subject, m.content])).toEqual([
      [channel, 'OutboxBacklogGrowing', `:alert: **FIRING** ${rule.annotations.summary} ([graph](${graph}))`],
      [channel, 'OutboxBacklogGrowing', `:squared_ok: **Resolved** ${rule.annotations.summary} ([graph](${graph}))`],
    ]);
  });
});
