import { Queue } from 'bullmq';
import type { createRedis } from '@chat/bus';

/**
 * Realm exports run as BullMQ jobs: writing an organization's history can take long, so the
 * request only records the export and queues it; a worker in any replica writes it.
 */
export const EXPORT_QUEUE = 'realm-export';

export interface ExportJob {
  exportId: number;
  /** The realm's URL when it was requested: the finished export's download address is below it. */
  realmUrl: string;
}

export interface ExportQueue {
  add(job: ExportJob): Promise<void>;
  close(): Promise<void>;
}

export function createExportQueue(connection: ReturnType<typeof createRedis>, prefix: string): ExportQueue {
  const queue = new Queue(EXPORT_QUEUE, {
    connection,
    prefix,
    // A failed export is reported as failed, as on the family's server; the admin asks again.
    defaultJobOptions: { attempts: 1, removeOnComplete: { age: 3600, count: 1000 }, removeOnFail: { age: 7 * 24 * 3600 } },
  });
  // The connection reports its own outages (createRedis); this copy only must not go unheard.
  queue.on('error', () => undefined);
  return {
    async add(job) {
      // The job id is the export's, so a repeated add cannot write one export twice.
      await queue.add('export', job, { jobId: `export-${job.exportId}` });
    },
    close: () => queue.close(),
  };
}
