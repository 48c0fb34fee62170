import { redisKeys } from '@chat/bus';
import type { Services } from '../context';
import { createMailQueue, type MailQueue } from '../workers/mail';

/**
 * Runs `send` with the mail queue: the one given, or one opened for this command only. The
 * message waits in Redis for the users service's mail worker, as the API's mail does.
 */
export async function sendPasswordResetMail(
  services: Pick<Services, 'redis' | 'config'> & Partial<Pick<Services, 'mail'>>,
  send: (mail: MailQueue) => Promise<void>,
): Promise<void> {
  if (services.mail) return send(services.mail);
  const mail = createMailQueue(services.redis, redisKeys(services.config.REDIS_PREFIX).bullPrefix(), services.config);
  try {
    await send(mail);
  } finally {
    await mail.close();
  }
}
