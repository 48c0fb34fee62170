// One process of long-polling clients for the bench: each holds GET /events on its queue and
// times every message event from the send time carried in its content (`sent=<ms>`); the bench
// keeps the times of the messages it measured (told 'flush', it hands over what it has so far).
//
// Each client speaks HTTP/1.1 on a keep-alive socket of its own (http1.mjs). Every answer is
// parsed in full and checked.
import { answerReader, connectTo } from './http1.mjs';
import { report, task } from './load-process.mjs';

const { url, host, clients, staggerMs } = await task();
const target = new URL(url);
const latencies = [];
/** Per message (keyed by its send time): [first, last] recipient's latency here, and how many. */
const perMessage = new Map();
const errors = {};
let stopping = false;
const sockets = new Set();
const SENT = /sent=(\d+)/;
const noteError = (what) => void (errors[what] = (errors[what] ?? 0) + 1);

function connect(c) {
  const socket = connectTo(target);
  sockets.add(socket);
  c.socket = socket;
  socket.on('connect', () => send(c));
  socket.on('data', answerReader((status, body, close, now) => {
    answered(c, status, body, now);
    if (close) socket.destroy();
    else setImmediate(() => send(c));
  }));
  socket.on('error', (err) => noteError(err.message));
  socket.on('close', () => {
    sockets.delete(socket);
    if (c.socket === socket) c.socket = null;
    if (!stopping) setTimeout(() => connect(c), 200);
  });
}

function send(c) {
  if (stopping || !c.socket) return;
  c.socket.write(
    `GET /api/v1/events?queue_id=${encodeURIComponent(c.queueId)}&last_event_id=${c.lastEventId} HTTP/1.1\r\n` +
      `Host: ${host}\r\nAuthorization: ${c.auth}\r\n\r\n`,
  );
}

function answered(c, status, raw, now) {
  try {
    const body = JSON.parse(raw.toString());
    if (body.result !== 'success') noteError(`${status} ${JSON.stringify(body).slice(0, 120)}`);
    for (const e of body.events ?? []) {
      c.lastEventId = Math.max(c.lastEventId, e.id);
      const m = e.type === 'message' ? SENT.exec(e.message?.content ?? '') : null;
      if (m) {
        const ms = now - Number(m[1]);
        latencies.push([Number(m[1]), ms]);
        const seen = perMessage.get(m[1]);
        if (seen) {
          seen[0] = Math.min(seen[0], ms);
          seen[1] = Math.max(seen[1], ms);
          seen[2]++;
        } else perMessage.set(m[1], [ms, ms, 1]);
      }
    }
  } catch {
    noteError(`${status} unparsable body`);
  }
}

clients.forEach((c, i) => setTimeout(() => connect(c), Math.floor((i / clients.length) * staggerMs)));
process.on('message', (m) => {
  // 'flush': what was received since the last flush, the polls held on. Not a final report: it
  // carries no CPU figure (workers.ts counts a process's CPU from its last report).
  if (m === 'flush') {
    process.send({ flushed: { latencies: latencies.splice(0), errors: { ...errors }, perMessage: [...perMessage].map(([sent, v]) => [Number(sent), ...v]) } });
    perMessage.clear();
    for (const k of Object.keys(errors)) delete errors[k];
    return;
  }
  if (m === 'stop') {
    stopping = true;
    for (const s of sockets) s.destroy();
    void report({ latencies, errors, perMessage: [...perMessage].map(([sent, v]) => [Number(sent), ...v]) }).then(() => process.exit(0));
  }
});
