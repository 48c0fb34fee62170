// One process of senders for the bench: `concurrency` loops, each POSTing its own request in
// turn through the gateway until the deadline. Latencies after the warm-up are reported.
import { Connection } from './http1.mjs';
import { report, task } from './load-process.mjs';

const { url, host, jobs, concurrency, durationMs, warmupMs, ratePerSec } = await task();
const target = new URL(url);

// A client never repeats a local_id on its queue, and the server answers a repeated
// (queue_id, local_id) with the first send's message instead of storing another (ADR 0010).
// The queues outlive one sender process (every run of a scenario sends on them), so the
// numbering starts past any earlier process's: from the process's start time.
let localIds = Date.now() * 1000;

// Each loop has its own keep-alive connection, speaking HTTP/1.1 itself (http1.mjs).
async function post(connection, job) {
  const started = performance.now();
  // The send time travels in the content, so that long-polling clients can time delivery.
  const sent = Date.now();
  // `__LOCAL__`: an interactive client's local_id, new for each of its sends.
  const body = job.body.replace('__SENT__', String(sent)).replace('__LOCAL__', String(++localIds));
  const r = await connection.request(
    `POST ${job.path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${job.auth}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  const ms = performance.now() - started;
  if (r.error) return { ok: false, ms, why: r.error, sent };
  const ok = r.status === 200;
  return { ok, ms, why: ok ? '' : `${r.status} ${r.body.toString().slice(0, 160)}`, sent };
}

// Ready before the clock starts: the process has started and its connections are open, so
// that neither lands in the first measured sends. The bench says when to go.
const connections = Array.from({ length: concurrency }, () => new Connection(target));
await Promise.all(connections.map((c) => c.ready()));
await new Promise((resolve) => {
  process.once('message', resolve);
  process.send({ ready: true });
});

const latencies = [];
/** [send time carried in the content, ms until the send was answered], per measured send. */
const sends = [];
const errors = {};
let done = 0;
const t0 = performance.now();
const measureFrom = t0 + warmupMs;
const deadline = measureFrom + durationMs;
// With a rate, requests start on a fixed schedule shared by the loops (open model, bounded by
// the loops in flight); without one, each loop sends again as soon as it is answered.
const interval = ratePerSec ? 1000 / ratePerSec : 0;
let slot = t0;

async function loop(i) {
  const connection = connections[i];
  let k = i;
  while (performance.now() < deadline) {
    if (interval) {
      slot += interval;
      const wait = slot - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (performance.now() >= deadline) break;
    }
    const job = jobs[k % jobs.length];
    k += concurrency;
    const startedAt = performance.now();
    const r = await post(connection, job);
    if (startedAt < measureFrom) continue;
    if (r.ok) {
      latencies.push(r.ms);
      sends.push([r.sent, r.ms]);
      done++;
    } else errors[r.why] = (errors[r.why] ?? 0) + 1;
  }
}

await Promise.all(Array.from({ length: concurrency }, (_, i) => loop(i)));
await report({ latencies, sends, done, errors, seconds: (Math.max(performance.now(), deadline) - measureFrom) / 1000 });
process.exit(0);
