import os from 'node:os';
import type { Router } from 'express';
import { createRedis, keyspace } from '@chat/bus';
import { createDb, withShortQuerySettings } from '@chat/db';
import { createApp, createLogger, listen, type ServiceHandle } from '@chat/kit';
import { readConfig } from './config';
import { configureStatementGroups, registerSendMetrics, sweepSendKeys } from './actions/send';
import type { Services } from './context';
import { messageRoutes } from './routes/messages';
import { streamRoutes } from './routes/streams';
import { messageActionRoutes } from './routes/message-actions';
import { otherRoutes } from './routes/other';
import { subscriptionRoutes } from './routes/subscriptions';
import { scheduledRoutes } from './routes/scheduled';
import { defaultStreamRoutes } from './routes/default-streams';
import { onboardingRoutes } from './routes/onboarding';
import { channelExtraRoutes } from './routes/channel-extras';
import { messageExtraRoutes } from './routes/message-extras';
import { webhookRoutes } from './routes/webhooks';
import { ScheduledDelivery } from './workers/scheduled';
import { startOnboardingConsumer } from './workers/onboarding';
import { startOutgoingWebhooks } from './workers/outgoing-webhooks';
import { startInboundMailIfEnabled } from './workers/inbound-mail';
import { externalContentRoutes } from './routes/external-content';
import { setImageProxyKey } from './markdown/image-proxy';
import { LinkPreviewJobs } from './workers/link-previews';

export function mountRoutes(router: Router, services: Services): void {
  messageRoutes(router, services);
  messageActionRoutes(router, services);
  otherRoutes(router, services);
  subscriptionRoutes(router, services);
  streamRoutes(router, services);
  scheduledRoutes(router, services);
  defaultStreamRoutes(router, services);
  onboardingRoutes(router, services);
  channelExtraRoutes(router, services);
  messageExtraRoutes(router, services);
  webhookRoutes(router, services);
}

/** Starts the messaging service; `overrides` replace environment variables (tests pass PORT=0 and their database). */
export async function start(overrides: Record<string, string | undefined> = {}): Promise<ServiceHandle> {
  const config = readConfig(overrides);
  const log = createLogger('messaging', config.LOG_LEVEL);
  const db = createDb(withShortQuerySettings(config.DATABASE_URL), { poolSize: config.DATABASE_POOL_SIZE });
  configureStatementGroups(db, config.SEND_STATEMENTS_IN_FLIGHT);
  setImageProxyKey(config.IMAGE_PROXY_KEY);
  const services: Services = { db, log, config };
  const linkPreviews = new LinkPreviewJobs(services);
  services.linkPreviews = linkPreviews;
  const { app, state, metrics } = createApp({
    service: 'messaging',
    log,
    internalSecret: config.INTERNAL_SECRET,
    ready: async () => {
      await db.$queryRawUnsafe('SELECT 1');
    },
    api: (router) => mountRoutes(router, services),
    site: (router) => externalContentRoutes(router, services),
  });
  registerSendMetrics(metrics, db);
  // The first query loads the query compiler and opens a connection (seconds): done before the
  // port opens, so the service is ready the moment it serves. A database still down at start
  // is reported by /readyz rather than failing the start.
  await db.$queryRawUnsafe('SELECT 1').catch((err) => log.warn({ err }, 'database not reachable yet'));
  const server = await listen(app, { host: config.HOST, port: config.PORT, state, log, metrics, metricsPort: config.METRICS_PORT });
  const sweep = setInterval(() => void sweepSendKeys(db).catch((err) => log.warn({ err }, 'send key sweep failed')), 3600_000);
  sweep.unref();
  const delivery = config.SCHEDULED_DELIVERY ? new ScheduledDelivery(services, config.SCHEDULED_DELIVERY_POLL_MS) : null;
  delivery?.start();
  if (config.URL_PREVIEW_WORKER) linkPreviews.startWorker();
  const redis = config.ONBOARDING_CONSUMER ? createRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'messaging', onError: (err) => log.warn({ err }, 'redis error') }) : null;
  const onboarding = redis
    ? await startOnboardingConsumer(services, {
        redis,
        keys: keyspace(config.REDIS_PREFIX, { partitions: config.STREAM_PARTITIONS }),
        consumer: config.CONSUMER_NAME || `${os.hostname()}-${process.pid}`,
      })
    : null;
  const inboundMail = await startInboundMailIfEnabled(services, overrides, metrics);
  const outgoingWebhooks = config.OUTGOING_WEBHOOKS ? await startOutgoingWebhooks(services) : null;
  return {
    url: server.url,
    metricsUrl: server.metricsUrl,
    port: server.port,
    async stop() {
      clearInterval(sweep);
      await inboundMail?.stop();
      await server.close(config.SHUTDOWN_GRACE_MS);
      await delivery?.stop();
      await onboarding?.stop();
      await outgoingWebhooks?.stop();
      await linkPreviews.close();
      redis?.disconnect();
      await db.$disconnect();
    },
  };
}
