/**
 * Everyone online: every subscriber of a channel registered through the API and long-polling
 * through the gateway, and every send an interactive one (the sender's own `queue_id` and a new
 * `local_id`, as a client that shows its message at once sends). Deliveries are counted until
 * every event of every measured message has arrived.
 */
import { call, form, inParallel, must, summary, type Account, type Site } from './api';
import { cpuDuring, type Measured } from './cpu';
import { waitingAtGateway, type Timing } from './phases';
import { startPollers, startSenders, type PollerReport, type Pollers, type SenderJob } from './workers';

export interface OnlineClient {
  account: Account;
  auth: string;
  queueId: string;
  lastEventId: number;
}

/** Registers each of `members` for message events through the API. */
export async function registerClients(site: Site, members: Account[]): Promise<OnlineClient[]> {
  return inParallel(members, 8, async (u) => {
    const a = await must<{ queue_id: string; last_event_id: number }>(site, u.auth, 'POST', '/register', {
      event_types: ['message'], fetch_event_types: ['message'],
    });
    return { account: u, auth: u.auth, queueId: a.body.queue_id, lastEventId: a.body.last_event_id };
  });
}

/** Starts long-polls for `clients` and waits until the gateways hold every one of them. */
export async function holdPolls(
  pollUrls: string[], host: string, metricsUrls: string[], clients: Array<{ auth: string; queueId: string; lastEventId: number }>,
): Promise<{ pollers: Pollers; held: number }> {
  const pollers = startPollers({ urls: pollUrls, host, clients, processes: 4, staggerMs: Math.min(20_000, clients.length) });
  const opened = Date.now();
  const count = async () => (await Promise.all(metricsUrls.map(waitingAtGateway))).reduce((a, b) => a + b, 0);
  let held = 0;
  while ((held = await count()) < clients.length && Date.now() - opened < 180_000) await new Promise((r) => setTimeout(r, 250));
  console.log(`  ${held} long-polls held after ${((Date.now() - opened) / 1000).toFixed(1)} s`);
  await pollers.flush();
  return { pollers, held };
}

export interface DeliveryRun {
  /** Measured messages, and the seconds from the first measured send to its last delivery. */
  messages: number;
  sendSeconds: number;
  /** Measured messages per second, counted to the last delivery of the last one. */
  msgsPerSec: number;
  deliveries: number;
  expected: number;
  p50: number;
  p99: number;
  sendP50: number;
  errors: Record<string, number>;
  /** Measured messages none of whose events arrived. */
  undelivered?: number;
  /** CPU microseconds per delivered event, by process label. */
  cpuUsPerEvent?: Record<string, number>;
}

/**
 * One run of sends while `pollers` hold their polls: `jobs` sent by `concurrency` loops (at
 * `ratePerSec` if given, else as fast as answered), then the pollers flushed until every event of
 * the measured messages arrived (or nothing more came for 15 s).
 */
export async function deliveryRun(
  site: Site, pollers: Pollers, jobs: SenderJob[], concurrency: number, recipientsOf: (sent: number) => number, t: Timing,
  ratePerSec: number | undefined, measured?: () => Promise<Measured[]>,
): Promise<DeliveryRun> {
  const senders = startSenders({ url: site.url, host: site.host, jobs, concurrency, durationMs: t.seconds * 1000, warmupMs: t.warmupSeconds * 1000, ratePerSec });
  await senders.ready;
  const got: PollerReport = { latencies: [], errors: {}, perMessage: [] };
  let expected = 0;
  let measuredSends = new Set<number>();
  const { result: sends, cpuMs } = await cpuDuring(measured ? await measured() : [], async () => {
    const done = await senders.go();
    measuredSends = new Set(done.sends.map(([sent]) => sent));
    expected = done.sends.reduce((n, [sent]) => n + recipientsOf(sent), 0);
    let have = 0;
    let lastNew = Date.now();
    while (have < expected && Date.now() - lastNew < 15_000) {
      await new Promise((r) => setTimeout(r, 250));
      const f = await pollers.flush();
      // Not push(...): a flush can hold more latencies than a call's arguments may be.
      for (const l of f.latencies) got.latencies.push(l);
      Object.assign(got.errors, f.errors);
      const more = f.latencies.filter(([sent]) => measuredSends.has(sent)).length;
      if (more) lastNew = Date.now();
      have += more;
    }
    return done;
  });
  const ofMeasured = got.latencies.filter(([sent]) => measuredSends.has(sent));
  const s = summary(ofMeasured.map(([, ms]) => ms));
  const first = [...measuredSends].reduce((a, b) => Math.min(a, b), Infinity);
  const last = ofMeasured.reduce((a, [sent, ms]) => Math.max(a, sent + ms), -Infinity);
  const sendSeconds = Math.max(sends.seconds, (last - first) / 1000);
  const run: DeliveryRun = {
    messages: sends.done, sendSeconds: Math.round(sendSeconds * 100) / 100, msgsPerSec: Math.round((sends.done / sendSeconds) * 10) / 10,
    deliveries: ofMeasured.length, expected, p50: s.p50, p99: s.p99, sendP50: summary(sends.latencies).p50,
    errors: { ...sends.errors, ...got.errors },
  };
  if (measured && ofMeasured.length) {
    // The warm-up's messages and their deliveries fall in the CPU window too: counted at the measured rate.
    const share = 1 + t.warmupSeconds / t.seconds;
    run.cpuUsPerEvent = Object.fromEntries(Object.entries(cpuMs).map(([k, v]) => [k, Math.round(((v * 1000) / (ofMeasured.length * share)) * 10) / 10]));
  }
  // Messages none of whose events arrived: named by their send time, for the log.
  const reached = new Set(ofMeasured.map(([sent]) => sent));
  const lost = [...measuredSends].filter((sent) => !reached.has(sent));
  run.undelivered = lost.length;
  if (lost.length) console.log(`  ${lost.length} measured messages reached no one: sent at ${lost.slice(0, 5).map((x) => new Date(x).toISOString()).join(', ')}`);
  const errs = Object.keys(run.errors).length ? ` errors ${JSON.stringify(run.errors).slice(0, 200)}` : '';
  console.log(`  ${run.msgsPerSec} msg/s, ${run.deliveries}/${run.expected} delivered, p50 ${run.p50} ms p99 ${run.p99} ms, send p50 ${run.sendP50} ms${errs}`);
  return run;
}

/** Interactive sends to `channelId` by `senders` (each with its own queue), topics spread over eight. */
export function interactiveJobs(senders: OnlineClient[], channelId: number): SenderJob[] {
  return senders.map((c, i) => ({
    auth: c.auth,
    path: '/api/v1/messages',
    body: form({ type: 'stream', to: channelId, topic: `online ${i % 8}`, content: 'online message, sent=__SENT__', queue_id: c.queueId, local_id: '__LOCAL__' }),
  }));
}

/** Deletes the queues made for a scenario. */
export async function dropClients(site: Site, clients: OnlineClient[]): Promise<void> {
  await inParallel(clients, 8, (c) => call(site, c.auth, 'DELETE', '/events', { queue_id: c.queueId }));
}
