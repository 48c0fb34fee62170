import { Worker, type Job } from 'bullmq';
import type { createRedis } from '@chat/bus';
import type { Services } from '../../context';
import { doRunExport } from '../../actions/exports';
import { EXPORT_QUEUE, type ExportJob } from './queue';

/** Writes queued realm exports, one at a time per replica (each reads a realm's whole history). */
export function startExportWorker(services: Services, connection: ReturnType<typeof createRedis>, prefix: string): Worker {
  const worker = new Worker(EXPORT_QUEUE, (job: Job<ExportJob>) => doRunExport(services, job.data), { connection, prefix, concurrency: 1 });
  worker.on('error', (err) => services.log.warn({ err }, 'export worker error'));
  return worker;
}
