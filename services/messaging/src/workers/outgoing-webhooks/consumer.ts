/**
 * Reads new messages from the domain streams as the `outgoing_webhooks` consumer group (one
 * replica gets each event) and queues a request for every outgoing-webhook bot a message
 * triggers (triggers.ts). Only message events of realms that have such a bot are parsed; the
 * rest are acknowledged unread (ADR 0021). Delivery is at least once; jobs have the (message,
 * bot) pair as their id, so an event read twice queues one request.
 */
import { CONSUMER_GROUPS, startGroupConsumer, type createRedis, type Keyspace, type StreamConsumer, type StreamEntry } from '@chat/bus';
import { isOutboxType } from '@chat/contracts';
import type { Queue } from 'bullmq';
import type { Services } from '../../context';
import { enqueueTrigger, type OutgoingWebhookJob } from './jobs';
import { triggeredBots, webhookMessage } from './triggers';

export const OUTGOING_WEBHOOKS_GROUP = CONSUMER_GROUPS.outgoing_webhooks;

/** How long a replica trusts its list of bots: a new bot answers at most this much later. */
const BOTS_MAX_AGE_MS = 2000;

/** The active outgoing-webhook bots by realm, read again when older than BOTS_MAX_AGE_MS (one small query). */
class OutgoingBots {
  private byRealm = new Map<number, Set<number>>();
  private loadedAt = 0;

  constructor(private readonly services: Services) {}

  async current(): Promise<Map<number, Set<number>>> {
    if (Date.now() - this.loadedAt < BOTS_MAX_AGE_MS) return this.byRealm;
    const rows = await this.services.db.$queryRawUnsafe<Array<{ id: number; realm_id: number }>>(
      `SELECT DISTINCT u.id, u.realm_id FROM bot_services s JOIN users u ON u.id = s.bot_id WHERE u.is_active AND u.is_bot`,
    );
    const byRealm = new Map<number, Set<number>>();
    for (const r of rows) byRealm.set(r.realm_id, (byRealm.get(r.realm_id) ?? new Set()).add(r.id));
    this.byRealm = byRealm;
    this.loadedAt = Date.now();
    return byRealm;
  }
}

export interface TriggerConsumerOptions {
  redis: ReturnType<typeof createRedis>;
  keys: Keyspace;
  consumer: string;
  queue: Queue<OutgoingWebhookJob>;
}

/** <scheme>://<string_id>.<host>, or <scheme>://<host> for the root realm, as the gateway maps hosts. */
function realmAddress(config: Services['config'], stringId: string): { url: string; host: string } {
  const host = stringId === config.ROOT_REALM ? config.EXTERNAL_HOST : `${stringId}.${config.EXTERNAL_HOST}`;
  return { url: `${config.EXTERNAL_SCHEME}://${host}`, host };
}

export async function startTriggerConsumer(services: Services, o: TriggerConsumerOptions): Promise<StreamConsumer> {
  const bots = new OutgoingBots(services);
  const policy = { retries: services.config.OUTGOING_WEBHOOK_RETRIES, delayMs: services.config.OUTGOING_WEBHOOK_RETRY_DELAY_MS };

  const handle = async (entry: StreamEntry, byRealm: Map<number, Set<number>>) => {
    if (!isOutboxType(entry, 'message')) return;
    const inRealm = byRealm.get(entry.realmId);
    const triggered = inRealm ? triggeredBots(entry.payload, inRealm) : [];
    if (!triggered.length) return;
    const sender = await services.db.user.findUnique({ where: { id: entry.payload.sender_id }, select: { isBot: true, realm: { select: { stringId: true } } } });
    // Nothing a bot sends triggers a bot: two bots could otherwise answer each other forever.
    if (!sender || sender.isBot) return;
    const address = realmAddress(services.config, sender.realm.stringId);
    const message = webhookMessage(entry.payload);
    for (const { botId, trigger } of triggered) {
      await enqueueTrigger(o.queue, { realmId: entry.realmId, realmUrl: address.url, realmHost: address.host, botId, trigger, message }, policy);
    }
  };

  // An event given up on leaves only this message's bots silent.
  return startGroupConsumer({
    name: 'outgoing webhooks',
    log: services.log,
    redis: o.redis,
    keys: o.keys,
    group: OUTGOING_WEBHOOKS_GROUP,
    consumer: o.consumer,
    select: async (heads) => {
      const byRealm = heads.some((h) => h.type === 'message') ? await bots.current() : new Map<number, Set<number>>();
      return heads.map((h) => h.type === 'message' && byRealm.has(h.realmId));
    },
    perBatch: () => bots.current(),
    handle,
  });
}
