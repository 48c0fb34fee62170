/** Starts the inbound mail listener on replicas where INBOUND_SMTP_PORT is set. */
import { createRedis, keyspace } from '@chat/bus';
import { realmUrlFor, type Metrics } from '@chat/kit';
import type { Services } from '../../context';
import { emailGatewayDomain } from '../../config';
import { readInboundMailConfig } from './config';
import { startInboundMail } from './server';

export interface RunningInboundMail {
  port: number;
  stop(): Promise<void>;
}

/** `overrides` as the service's own (tests pass their settings); null when this replica runs no listener. */
export async function startInboundMailIfEnabled(services: Services, overrides: Record<string, string | undefined>, metrics?: Metrics): Promise<RunningInboundMail | null> {
  const cfg = readInboundMailConfig(overrides);
  if (cfg.INBOUND_SMTP_PORT === '') return null;
  const { config, log } = services;
  const redis = createRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'inbound-mail', onError: (err) => log.warn({ err }, 'redis error') });
  const keys = keyspace(config.REDIS_PREFIX, { partitions: config.STREAM_PARTITIONS });
  const host = config.EXTERNAL_HOST;
  try {
    const listener = await startInboundMail(services, {
      host: cfg.INBOUND_SMTP_HOST || config.HOST,
      port: cfg.INBOUND_SMTP_PORT,
      maxBytes: cfg.INBOUND_MAIL_MAX_BYTES,
      senderPerMinute: cfg.INBOUND_MAIL_SENDER_PER_MINUTE,
      realmPerMinute: cfg.INBOUND_MAIL_REALM_PER_MINUTE,
      redis,
      keyPrefix: keys.inboundMailLimitPrefix,
      metrics,
      context: {
        domain: emailGatewayDomain(config),
        realmUrl: (stringId) => realmUrlFor({ EXTERNAL_SCHEME: cfg.EXTERNAL_SCHEME, EXTERNAL_HOST: host, ROOT_REALM: cfg.ROOT_REALM }, stringId),
        uploadsUrl: cfg.UPLOADS_URL,
      },
    });
    return {
      port: listener.port,
      async stop() {
        await listener.stop();
        redis.disconnect();
      },
    };
  } catch (err) {
    redis.disconnect();
    throw err;
  }
}
