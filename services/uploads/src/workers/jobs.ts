import { Queue, Worker } from 'bullmq';
import { createBlockingRedis } from '@chat/bus';
import type { Services } from '../context';
import { deleteUnclaimedAttachments } from '../actions/cleanup';
import { makeThumbnails } from './thumbnails';

type JobData = { attachmentId: number } | Record<string, never>;

/**
 * Background work on BullMQ: thumbnails of new images, and a periodic sweep of unreferenced
 * files and abandoned resumable uploads. One scheduler entry means one sweep per interval
 * however many replicas run workers.
 */
export class UploadJobs {
  readonly queue: Queue<JobData>;
  private worker?: Worker<JobData>;
  private readonly connections: Array<ReturnType<typeof createBlockingRedis>> = [];

  constructor(
    private readonly services: Omit<Services, 'requestThumbnails'>,
    private readonly extraSweep: () => Promise<unknown> = async () => undefined,
  ) {
    const connection = this.connection('jobs-queue');
    this.queue = new Queue<JobData>('uploads', { connection, prefix: services.keys.bullPrefix() });
    // The connection reports its own outages (createRedis); this copy only must not go unheard.
    this.queue.on('error', () => undefined);
  }

  private connection(name: string) {
    const c = createBlockingRedis(this.services.config.REDIS_URL, { service: this.services.config.SERVICE_NAME, name, onError: (err) => this.services.log.warn({ err }, 'redis error') });
    this.connections.push(c);
    return c;
  }

  async requestThumbnails(attachmentId: number): Promise<void> {
    await this.queue.add(
      'thumbnail',
      { attachmentId },
      { jobId: `thumbnail-${attachmentId}`, attempts: 3, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: 1000 },
    );
  }

  /** Starts processing (only on replicas that run workers). */
  async startWorker(services: Services): Promise<void> {
    await this.queue.upsertJobScheduler(
      'sweep',
      { every: this.services.config.CLEANUP_INTERVAL_SECONDS * 1000 },
      { name: 'sweep', data: {}, opts: { removeOnComplete: true, removeOnFail: 100 } },
    );
    this.worker = new Worker<JobData>(
      'uploads',
      async (job) => {
        if (job.name === 'thumbnail' && 'attachmentId' in job.data) return makeThumbnails(services, job.data.attachmentId);
        if (job.name === 'sweep') {
          const deleted = await deleteUnclaimedAttachments(services, this.services.config.UNCLAIMED_ATTACHMENT_DAYS);
          await this.extraSweep();
          return { deleted };
        }
        return null;
      },
      { connection: this.connection('jobs-worker'), prefix: this.services.keys.bullPrefix(), concurrency: 2 },
    );
    this.worker.on('failed', (job, err) => this.services.log.warn({ err, job: job?.name, id: job?.id }, 'upload job failed'));
    this.worker.on('error', (err) => this.services.log.warn({ err }, 'upload worker error'));
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
    for (const c of this.connections) c.disconnect();
  }
}
