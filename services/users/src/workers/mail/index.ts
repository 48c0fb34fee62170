export { createMailQueue, MAIL_QUEUE, type MailQueue } from './queue';
export { createMailTransport, PermanentMailError, type MailMessage, type MailTransport } from './transport';
export { startMailWorker, type MailJobHandlers, type MailRenderers } from './worker';
