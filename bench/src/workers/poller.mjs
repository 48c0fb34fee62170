// One process of long-polling clients for the bench: each holds GET /events on its queue and
// times every message event from the send time carried in its content (`sent=<ms>`).
//
// Each client speaks HTTP/1.1 on a keep-alive socket of its own, written and parsed here rather
// than through node:http: the clients share the two cores with the cluster they measure, and
// node:http's client cost about as much CPU per answer as the gateway spent serving it, so
// the servers' delivery waited behind the load generator (and its own queueing was counted as
// delivery time). Every answer is still parsed in full and checked.
import net from 'node:net';
import { report, task } from './load-process.mjs';

const { url, host, clients, staggerMs } = await task();
const target = new URL(url);
const latencies = [];
/** Per message (keyed by its send time): [first, last] recipient's latency here, and how many. */
const perMessage = new Map();
const errors = {};
let stopping = false;
let measuring = false;
let delivered = 0;
const sockets = new Set();
const SENT = /sent=(\d+)/;
const HEAD_END = Buffer.from('\r\n\r\n');
const noteError = (what) => void (errors[what] = (errors[what] ?? 0) + 1);

/** Reads one answer's head: status, Content-Length, chunked or not. */
function parseHead(head) {
  const lines = head.split('\r\n');
  const status = Number(lines[0].split(' ')[1]);
  let length = -1;
  let chunked = false;
  let close = false;
  for (let i = 1; i < lines.length; i++) {
    const colon = lines[i].indexOf(':');
    const name = lines[i].slice(0, colon).trim().toLowerCase();
    const value = lines[i].slice(colon + 1).trim();
    if (name === 'content-length') length = Number(value);
    else if (name === 'transfer-encoding') chunked = /chunked/i.test(value);
    else if (name === 'connection') close = /close/i.test(value);
  }
  return { status, length, chunked, close };
}

/** A chunked body, or null while incomplete: [body, bytes consumed]. */
function dechunk(buf) {
  const parts = [];
  let at = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) return null;
    const size = parseInt(buf.toString('latin1', at, eol), 16);
    if (buf.length < eol + 2 + size + 2) return null;
    if (size === 0) return [Buffer.concat(parts), eol + 4];
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

function connect(c) {
  const socket = net.connect({ host: target.hostname, port: Number(target.port), noDelay: true });
  sockets.add(socket);
  c.socket = socket;
  let buf = Buffer.alloc(0);
  let head = null;
  socket.on('connect', () => send(c));
  socket.on('data', (d) => {
    const now = Date.now();
    buf = buf.length ? Buffer.concat([buf, d]) : d;
    for (;;) {
      if (!head) {
        const end = buf.indexOf(HEAD_END);
        if (end < 0) return;
        head = parseHead(buf.toString('latin1', 0, end));
        buf = buf.subarray(end + 4);
      }
      let body;
      if (head.chunked) {
        const r = dechunk(buf);
        if (!r) return;
        [body, buf] = [r[0], buf.subarray(r[1])];
      } else {
        if (head.length < 0 || buf.length < head.length) return;
        [body, buf] = [buf.subarray(0, head.length), buf.subarray(head.length)];
      }
      const { status, close } = head;
      head = null;
      answered(c, status, body, now);
      if (close) socket.destroy();
      else setImmediate(() => send(c));
    }
  });
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
      if (m && measuring) {
        const ms = now - Number(m[1]);
        latencies.push(ms);
        delivered++;
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
  if (m === 'measure') measuring = true;
  if (m === 'stop') {
    stopping = true;
    for (const s of sockets) s.destroy();
    void report({ latencies, errors, delivered, perMessage: [...perMessage].map(([sent, v]) => [Number(sent), ...v]) }).then(() => process.exit(0));
  }
});
