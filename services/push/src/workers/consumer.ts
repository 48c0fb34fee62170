import { startGroupConsumer, type EntryHead, type StreamEntry } from '@chat/bus';
import { isOutboxType } from '@chat/contracts';
import { ActiveClients } from '@chat/notify';
import type { Services } from '../context';
import { DeviceHolders, listsAnyOf, type Holders } from '../lib/device-holders';
import { doForgetDeactivatedUser } from '../actions/legacy-registration';
import { doRevokeDeletedNotifications, doRevokeReadNotifications, doNotifyNewMessage } from '../actions/notifications';

/** Event types whose work is for people with a push device only, among the event's `users`. */
const DEVICE_EVENTS = new Set(['message', 'update_message_flags', 'delete_message']);

/**
 * Whether an entry can mean work, decided from its type, realm and JSON bytes without parsing it:
 * a deactivation always (it forgets legacy tokens); a message, flag or deletion event only if its
 * realm has someone with a device and its `users` list may name one of them (the handlers act for
 * those recipients only).
 */
function mayConcern(head: EntryHead, holders: Holders | undefined): boolean {
  if (head.type === 'realm_user') return true;
  if (!holders || !DEVICE_EVENTS.has(head.type)) return false;
  const inRealm = holders.byRealm.get(head.realmId);
  return inRealm !== undefined && listsAnyOf(head.payload, inRealm);
}

export interface MessageConsumer {
  stop(): Promise<void>;
}

/**
 * Reads the domain streams as the `push` consumer group, so that each event reaches one push
 * replica, and turns message, flag and deletion events into delivery jobs (and a user's
 * deactivation into forgetting their legacy tokens). Delivery is at least
 * once: a batch is acknowledged once its jobs are in Redis, and notify jobs have deterministic
 * ids, so handling an entry again does not notify twice.
 *
 * A failing entry (database or Redis briefly away) fails its batch, which the consumer retries
 * with backoff; an entry that keeps failing is logged and skipped rather than holding up every
 * later event of its partition.
 */
export async function startMessageConsumer(services: Services, consumerName: string): Promise<MessageConsumer> {
  const { keys, log, config } = services;
  const active = new ActiveClients(services.redis, config.REDIS_PREFIX, config.PUSH_ACTIVE_CLIENT_WINDOW_SECONDS);
  const holders = new DeviceHolders(services);

  const handleEntry = async (entry: StreamEntry, reach: Set<number>) => {
    if (isOutboxType(entry, 'message')) return doNotifyNewMessage(services, active, entry.realmId, entry.payload, reach);
    if (isOutboxType(entry, 'update_message_flags')) return doRevokeReadNotifications(services, entry.realmId, entry.payload, reach);
    if (isOutboxType(entry, 'delete_message')) return doRevokeDeletedNotifications(services, entry.realmId, entry.payload, reach);
    if (isOutboxType(entry, 'realm_user')) return doForgetDeactivatedUser(services, entry.realmId, entry.payload);
    return undefined;
  };

  return startGroupConsumer({
    name: 'push',
    log,
    redis: services.redis,
    keys,
    group: keys.groups.push,
    consumer: consumerName,
    // Most events concern no one with a device: they are acknowledged without being parsed.
    select: async (heads) => {
      const held = heads.some((h) => DEVICE_EVENTS.has(h.type)) ? await holders.current() : undefined;
      return heads.map((h) => mayConcern(h, held));
    },
    // Read once per batch: who has a device or token at all. Everyone else is skipped
    // without touching the database.
    perBatch: async (entries) => (entries.some((e) => DEVICE_EVENTS.has(e.type)) ? (await holders.current()).users : new Set<number>()),
    handle: async (entry, reach) => void (await handleEntry(entry, reach)),
  });
}
