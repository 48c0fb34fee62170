export { createExportQueue, EXPORT_QUEUE, type ExportJob, type ExportQueue } from './queue';
export { startExportWorker } from './worker';
export { createExportStore, type ExportStore } from './store';
