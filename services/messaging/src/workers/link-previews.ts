import { Queue, Worker } from 'bullmq';
import { createBlockingRedis, createRedis, redisKeys } from '@chat/bus';
import type { Services } from '../context';
import { doApplyLinkPreviews, type LinkPreviewJob } from '../actions/link-previews';

/**
 * The link preview job on BullMQ (queue `link-previews`): a send or an edit whose message has
 * pages to preview queues one job per message; replicas with URL_PREVIEW_WORKER on read the
 * pages. A job fails at most twice (a page answering slowly once); what it could not read is
 * cached as no preview, so a retry costs no second wait.
 */
export class LinkPreviewJobs {
  private readonly queue: Queue<LinkPreviewJob>;
  private worker?: Worker<LinkPreviewJob>;
  private readonly connections: Array<ReturnType<typeof createBlockingRedis>> = [];
  private readonly cache: ReturnType<typeof createRedis>;

  constructor(private readonly services: Services) {
    const { config, log } = services;
    const onError = (err: Error) => log.warn({ err }, 'redis error');
    const connection = createBlockingRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'link-previews-queue', onError });
    this.connections.push(connection);
    this.queue = new Queue<LinkPreviewJob>('link-previews', { connection, prefix: redisKeys(config.REDIS_PREFIX).bullPrefix() });
    // The connection reports its own outages; this copy only must not go unheard.
    this.queue.on('error', () => undefined);
    this.cache = createRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'link-previews', onError });
  }

  /** Queues the message's previews; a failure to queue is logged, never the send's. */
  async request(job: LinkPreviewJob): Promise<void> {
    await this.queue
      .add('preview', job, { attempts: 2, backoff: { type: 'fixed', delay: 1000 }, removeOnComplete: true, removeOnFail: 100 })
      .catch((err: unknown) => this.services.log.warn({ err, messageId: job.messageId }, 'could not queue link previews'));
  }

  startWorker(): void {
    const { config, log } = this.services;
    const connection = createBlockingRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'link-previews-worker', onError: (err) => log.warn({ err }, 'redis error') });
    this.connections.push(connection);
    const cache = { redis: this.cache, keys: redisKeys(config.REDIS_PREFIX) };
    this.worker = new Worker<LinkPreviewJob>('link-previews', async (job) => doApplyLinkPreviews(this.services, cache, job.data), {
      connection,
      prefix: redisKeys(config.REDIS_PREFIX).bullPrefix(),
      concurrency: 4,
    });
    this.worker.on('failed', (job, err) => log.warn({ err, messageId: job?.data.messageId }, 'link preview job failed'));
    this.worker.on('error', (err) => log.warn({ err }, 'link preview worker error'));
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
    for (const c of this.connections) c.disconnect();
    this.cache.disconnect();
  }
}
