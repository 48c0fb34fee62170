// One thread of long-polling clients for the bench: each holds GET /events on its queue and
// times every message event from the send time carried in its content (`sent=<ms>`).
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, host, clients, staggerMs } = workerData;
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const latencies = [];
const errors = {};
let stopping = false;
let measuring = false;
let delivered = 0;
const SENT = /sent=(\d+)/;
const noteError = (what) => void (errors[what] = (errors[what] ?? 0) + 1);

function poll(c) {
  if (stopping) return;
  const req = http.request(
    {
      host: target.hostname, port: target.port, agent, method: 'GET',
      path: `/api/v1/events?queue_id=${encodeURIComponent(c.queueId)}&last_event_id=${c.lastEventId}`,
      headers: { host, authorization: c.auth },
    },
    (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => {
        const now = Date.now();
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString());
          if (body.result !== 'success') noteError(`${res.statusCode} ${JSON.stringify(body).slice(0, 120)}`);
          for (const e of body.events ?? []) {
            c.lastEventId = Math.max(c.lastEventId, e.id);
            const m = e.type === 'message' ? SENT.exec(e.message?.content ?? '') : null;
            if (m && measuring) {
              latencies.push(now - Number(m[1]));
              delivered++;
            }
          }
        } catch {
          noteError(`${res.statusCode} unparsable body`);
        }
        setImmediate(() => poll(c));
      });
    },
  );
  req.on('error', (err) => {
    noteError(err.message);
    if (!stopping) setTimeout(() => poll(c), 200);
  });
  req.end();
}

clients.forEach((c, i) => setTimeout(() => poll(c), Math.floor((i / clients.length) * staggerMs)));
parentPort.on('message', (m) => {
  if (m === 'measure') measuring = true;
  if (m === 'stop') {
    stopping = true;
    agent.destroy();
    parentPort.postMessage({ latencies, errors, delivered });
    setTimeout(() => process.exit(0), 50);
  }
});
