/**
 * One thread of the long-poll benchmark's clients (see longpoll.ts). The clients are spread
 * over several threads so that a burst of answers is not queued behind a single event loop of
 * the load generator, which would be counted as delivery latency.
 */
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

export interface ClientSpec {
  auth: string;
  queueId: string;
}

export interface ClientsReport {
  latencies: number[];
  errors: Record<string, number>;
  loopLagP99Ms: number;
}

const { gatewayUrl, clients, staggerMs } = workerData as { gatewayUrl: string; clients: ClientSpec[]; staggerMs: number };
const url = new URL(gatewayUrl);
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const latencies: number[] = [];
const errors: Record<string, number> = {};
const lag = monitorEventLoopDelay({ resolution: 10 });
let stopping = false;
let measured = 0;

const noteError = (what: string) => void (errors[what] = (errors[what] ?? 0) + 1);

function poll(c: ClientSpec & { lastEventId: number }): void {
  if (stopping) return;
  const req = http.request(
    {
      host: url.hostname, port: url.port, agent, method: 'GET',
      path: `/api/v1/events?queue_id=${encodeURIComponent(c.queueId)}&last_event_id=${c.lastEventId}`,
      headers: { authorization: c.auth },
    },
    (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const now = Date.now();
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString()) as { result: string; events?: Array<{ id: number; message?: { sent_at: number } }> };
          if (body.result !== 'success') noteError(`${res.statusCode} ${JSON.stringify(body).slice(0, 120)}`);
          for (const e of body.events ?? []) {
            c.lastEventId = Math.max(c.lastEventId, e.id);
            if (e.message?.sent_at) latencies.push(now - e.message.sent_at);
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
    if (!stopping) setTimeout(() => poll(c), 100);
  });
  req.end();
}

parentPort!.on('message', (msg: string) => {
  // The measured phase starts: forget the warm-up.
  if (msg === 'measure') return void ((measured = latencies.length), lag.reset(), lag.enable());
  if (msg !== 'stop') return;
  stopping = true;
  clearInterval(progress);
  const report: ClientsReport = { latencies: latencies.slice(measured), errors, loopLagP99Ms: Math.round(lag.percentile(99) / 1e6) };
  parentPort!.postMessage(report);
  agent.destroy();
});

// Progress for the coordinator, which waits until every expected delivery has arrived.
const progress = setInterval(() => parentPort!.postMessage({ delivered: latencies.length }), 100);

clients.forEach((c, i) => setTimeout(() => poll({ ...c, lastEventId: -1 }), Math.floor(i / 500) * staggerMs));
