import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { SERVICES } from '@chat/contracts';
import { seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';

// The whole cluster, compiled, as production runs it: metrics are served on each process's
// METRICS_PORT and nowhere else, and every metric the alert rules and the dashboard use is one
// the services really export.
const root = path.resolve(__dirname, '../..');
let env: TestEnv;
let realm: SeededRealm;
let cluster: Cluster;
const scraped = new Map<string, string>();

const auth = (u: SeededUser) => ({ authorization: `Basic ${Buffer.from(`${u.email}:${u.apiKey}`).toString('base64')}` });
const post = (p: string, u: SeededUser, params: Record<string, string>) =>
  fetch(`${cluster.url}/api/v1${p}`, { method: 'POST', headers: auth(u), body: new URLSearchParams(params) }).then((r) => r.json() as Promise<Record<string, any>>);

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  cluster = await startCluster(env, { env: { EVENTS_HEARTBEAT_SECONDS: '1', INDEX_SWEEP_MS: '1000' } });
  // Traffic that every metric family has something to say about: a queue, a message fanned
  // out to it, a long-poll that receives it, a 404 by raw path.
  const queue = await post('/register', realm.member, { event_types: JSON.stringify(['message']) });
  expect(queue).toMatchObject({ result: 'success' });
  const poll = fetch(`${cluster.url}/api/v1/events?queue_id=${queue.queue_id}&last_event_id=-1`, { headers: auth(realm.member) }).then((r) => r.json());
  const sent = await post('/messages', realm.owner, { type: 'direct', to: JSON.stringify([realm.member.id]), content: 'metrics' });
  expect(sent).toMatchObject({ result: 'success' });
  expect(await poll).toMatchObject({ result: 'success' });
  await fetch(`${cluster.url}/api/v1/messages/12345`, { headers: auth(realm.member) });
  // One index sweep has run (INDEX_SWEEP_MS) and the fan-out has counted its appends.
  await new Promise((r) => setTimeout(r, 2000));
  for (const proc of cluster.processes) scraped.set(proc.service, await fetch(`${proc.metricsUrl}/metrics`).then((r) => r.text()));
}, 240000);

afterAll(async () => {
  await cluster?.stop();
  await env?.close();
});

const names = (text: string) => new Set(text.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(l)![0]));
const value = (text: string, series: RegExp) => Number(new RegExp(`^${series.source}\\s+(\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

it('serves /metrics on the metrics port only, never on a public or internal service port', async () => {
  for (const proc of cluster.processes) {
    const res = await fetch(`${proc.url}/metrics`);
    const body = await res.text();
    // The gateway answers 404; a backend refuses first for want of the gateway's identity.
    const expected = proc.service === 'gateway' || res.status === 404 ? 404 : 401;
    expect({ service: proc.service, status: res.status }).toEqual({ service: proc.service, status: expected });
    expect(body).not.toContain('process_');
    expect(scraped.get(proc.service)).toContain('process_resident_memory_bytes');
  }
});

it('exports the metrics operators use', () => {
  const gateway = scraped.get('gateway')!;
  // Route patterns label the gateway's requests; the raw id never appears.
  expect(gateway).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/messages\/\*",status="\d+"\} [1-9]/);
  expect(gateway).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/events",status="200"\} [1-9]/);
  expect(gateway).not.toContain('12345');
  expect(gateway).toMatch(/^gateway_longpolls_waiting\{[^}]*\} \d+$/m);
  const events = scraped.get('events')!;
  expect(value(events, /event_queues_alive\{[^}]*\}/)).toBeGreaterThanOrEqual(1);
  expect(value(events, /events_appended_total\{[^}]*\}/)).toBeGreaterThanOrEqual(1);
  expect(value(events, /event_queue_gc_runs_total\{[^}]*\}/)).toBeGreaterThanOrEqual(1);
  expect(value(events, /events_fanout_delay_seconds_count\{[^}]*\}/)).toBeGreaterThanOrEqual(1);
  expect(events).toMatch(/^stream_consumer_lag\{[^}]*group="events"[^}]*\} \d+$/m);
  expect(events).toMatch(/^stream_pending_entries\{[^}]*group="events"[^}]*\} \d+$/m);
  expect(value(events, /outbox_backlog_rows\{[^}]*\}/)).toBeGreaterThanOrEqual(0);
  expect(events).toMatch(/^outbox_oldest_age_seconds\{[^}]*\} /m);
  const push = scraped.get("push")!;
  // The push queue's name carries its Redis Cluster hash tag.
  expect(push).toMatch(/^bullmq_jobs\{queue="\{push\}",state="waiting",[^\n]*\} \d+$/m);
  expect(push).toMatch(/^bullmq_job_failures_total\{queue="\{push\}",[^\n]*\} \d+$/m);
  expect(scraped.get('users')!).toMatch(/^bullmq_jobs\{queue="mail",state="failed",[^\n]*\} \d+$/m);
});

/** Metric names in a PromQL expression: identifiers that are not functions, keywords or labels. */
function metricsIn(expr: string): string[] {
  const stripped = expr
    .replace(/"[^"]*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const keywords = new Set(['and', 'or', 'unless', 'by', 'without', 'bool', 'offset']);
  return [...stripped.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
    .filter((m) => !m[2])
    .map((m) => m[1]!)
    .filter((w) => !keywords.has(w) && /_/.test(w));
}

const exported = () => new Set([...scraped.values()].flatMap((t) => [...names(t)]));

it('alerts only on metrics the services export, and covers the ones operators page on', () => {
  const rules = parse(readFileSync(path.join(root, 'infra/prometheus/alerts.yml'), 'utf8')).groups.flatMap((g: any) => g.rules);
  const all = exported();
  for (const rule of rules) {
    const used = metricsIn(rule.expr);
    expect(used.length).toBeGreaterThan(0);
    expect({ alert: rule.alert, missing: used.filter((m) => !all.has(m)) }).toEqual({ alert: rule.alert, missing: [] });
  }
  const byMetric = (m: string) => rules.some((r: any) => metricsIn(r.expr).includes(m));
  for (const m of ['outbox_backlog_rows', 'stream_consumer_lag', 'http_request_duration_seconds_count', 'events_fanout_delay_seconds_bucket']) expect(byMetric(m)).toBe(true);
});

it('draws the dashboard from exported metrics only', () => {
  const dashboard = JSON.parse(readFileSync(path.join(root, 'infra/grafana/chat-cluster.json'), 'utf8'));
  const all = exported();
  const exprs: string[] = dashboard.panels.flatMap((p: any) => p.targets.map((t: any) => t.expr));
  expect(exprs.length).toBeGreaterThan(10);
  for (const expr of exprs) expect({ expr, missing: metricsIn(expr).filter((m) => !all.has(m)) }).toEqual({ expr, missing: [] });
});

it('scrapes every service on the metrics port the deployments give it', () => {
  const config = parse(readFileSync(path.join(root, 'infra/prometheus/prometheus.yml'), 'utf8'));
  const dns = config.scrape_configs.find((c: any) => c.dns_sd_configs).dns_sd_configs[0];
  expect([...dns.names].sort()).toEqual([...SERVICES].sort());
  expect(dns.port).toBe(9464);
  expect(config.rule_files).toEqual(['alerts.yml']);
});
