import { CONSUMER_GROUPS, createBlockingRedis } from '@chat/bus';
import type { Services } from '../context';
import { ActiveClients } from './active-clients';
import { handleDeletion, handleFlags, handleNewMessage, type MessagePayload } from './messages';

/** Event types this service acts on; everything else in the streams is acknowledged unread. */
const HANDLED = new Set(['message', 'update_message_flags', 'delete_message']);
const BLOCK_MS = 1000;
const BATCH = 100;
/** An entry a crashed replica read but never acknowledged is taken over after this long. */
const RECLAIM_IDLE_MS = 60_000;

export interface MessageConsumer {
  stop(): Promise<void>;
}

type Entry = [id: string, fields: string[]];

/**
 * Reads the domain streams as the `push` consumer group, so that each event reaches one push
 * replica, and turns message events into delivery jobs. An entry is acknowledged once its jobs
 * are in Redis; a handler that throws leaves it pending, and it is retried (by this or another
 * replica) after RECLAIM_IDLE_MS. Delivery is at least once: notify jobs have deterministic ids,
 * so a retried entry does not notify twice.
 */
export async function startMessageConsumer(services: Services, consumerName: string): Promise<MessageConsumer> {
  const { keys, log, config } = services;
  const group = CONSUMER_GROUPS.push;
  const streams = keys.allStreams();
  const active = new ActiveClients(services.redis, config.REDIS_PREFIX, config.PUSH_ACTIVE_CLIENT_WINDOW_SECONDS);
  for (const stream of streams) {
    try {
      // '$': a new deployment starts with what happens from now on, not with stale history.
      await services.redis.xgroup('CREATE', stream, group, '$', 'MKSTREAM');
    } catch (err) {
      if (!String((err as Error).message).includes('BUSYGROUP')) throw err;
    }
  }

  const reader = createBlockingRedis(config.REDIS_URL, { name: 'push:consumer', onError: (err) => log.warn({ err }, 'redis error') });
  let running = true;

  const handle = async (stream: string, [id, fields]: Entry) => {
    const f: Record<string, string> = {};
    for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
    if (HANDLED.has(f.type ?? '')) {
      const realmId = Number(f.realm_id);
      const payload = JSON.parse(f.payload ?? '{}');
      if (f.type === 'message') await handleNewMessage(services, active, realmId, payload as MessagePayload);
      else if (f.type === 'update_message_flags') await handleFlags(services, realmId, payload);
      else await handleDeletion(services, realmId, payload);
    }
    await services.redis.xack(stream, group, id);
  };

  const process = async (stream: string, entries: Entry[]) => {
    for (const entry of entries) {
      try {
        await handle(stream, entry);
      } catch (err) {
        log.warn({ err, stream, id: entry[0] }, 'push: event handling failed; will retry');
      }
    }
  };

  const reclaim = async () => {
    for (const stream of streams) {
      const [, entries] = (await services.redis.xautoclaim(stream, group, consumerName, RECLAIM_IDLE_MS, '0', 'COUNT', BATCH)) as [
        string,
        Entry[],
      ];
      await process(stream, entries.filter((e) => Array.isArray(e[1])));
    }
  };

  const loop = (async () => {
    let lastReclaim = 0;
    while (running) {
      try {
        if (Date.now() - lastReclaim > RECLAIM_IDLE_MS / 2) {
          lastReclaim = Date.now();
          await reclaim();
        }
        const reply = (await reader.xreadgroup(
          'GROUP',
          group,
          consumerName,
          'COUNT',
          BATCH,
          'BLOCK',
          BLOCK_MS,
          'STREAMS',
          ...streams,
          ...streams.map(() => '>'),
        )) as Array<[string, Entry[]]> | null;
        for (const [stream, entries] of reply ?? []) await process(stream, entries);
      } catch (err) {
        if (!running) break;
        log.warn({ err }, 'push: stream read failed');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  })();

  return {
    async stop() {
      running = false;
      await loop;
      reader.disconnect();
    },
  };
}
