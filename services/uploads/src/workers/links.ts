import { StreamConsumer, type StreamEntry } from '@chat/bus';
import { isOutboxType } from '@chat/contracts';
import type { Services } from '../context';
import { syncMessageLinks } from '../actions/links';
import { linkedPathIds } from '../lib/files';

/** Times one entry is tried (its batch retried with backoff in between) before it is skipped. */
const MAX_ENTRY_ATTEMPTS = 5;

function messageIds(entry: StreamEntry): number[] {
  const ids: unknown[] = isOutboxType(entry, 'message')
    ? [entry.payload.event.message?.id]
    : isOutboxType(entry, 'update_message')
      ? [entry.payload.event.message_id, ...(entry.payload.event.message_ids ?? [])]
      : isOutboxType(entry, 'delete_message')
        ? (entry.payload.event.message_ids ?? [])
        : [];
  return [...new Set(ids.filter((v): v is number => typeof v === 'number' && Number.isSafeInteger(v)))];
}

/**
 * A new message whose source (carried in the event as `raw_content`) links to no upload has no
 * links to record or drop: skipped without reading the message back. Edits and deletions are
 * always handled, as they may drop links the message had.
 */
function linksNothingNew(entry: StreamEntry): boolean {
  return isOutboxType(entry, 'message') && typeof entry.payload.raw_content === 'string' && linkedPathIds(entry.payload.raw_content).length === 0;
}

/**
 * Reads the domain streams as the `uploads` consumer group and keeps the links between
 * messages and uploaded files in step with the messages table: a sent message claims the files
 * it links to, an edit adds and drops links, a deletion drops them. Handling re-reads the
 * message row, so replaying or reordering events converges on the same links.
 */
export async function startLinkConsumer(services: Services, consumerName: string): Promise<StreamConsumer> {
  const attempts = new Map<string, number>();
  const consumer = new StreamConsumer({
    redis: services.redis,
    keys: services.keys,
    group: services.keys.groups.uploads,
    consumer: consumerName,
    blockMs: 1000,
    onError: (err) => services.log.warn({ err }, 'uploads: stream consumer error'),
    handler: async (entries) => {
      for (const entry of entries) {
        if (entry.type !== 'message' && entry.type !== 'update_message' && entry.type !== 'delete_message') continue;
        if (linksNothingNew(entry)) continue;
        const key = `${entry.partition}/${entry.streamId}`;
        try {
          for (const id of messageIds(entry)) await syncMessageLinks(services, id, entry.type === 'message');
          attempts.delete(key);
        } catch (err) {
          const n = (attempts.get(key) ?? 0) + 1;
          if (n >= MAX_ENTRY_ATTEMPTS) {
            // Access still works through the direct check of recent messages; only this
            // event's bookkeeping is lost.
            attempts.delete(key);
            services.log.error({ err, type: entry.type, outboxId: entry.outboxId }, 'uploads: giving up on an event');
            continue;
          }
          attempts.set(key, n);
          throw err;
        }
      }
    },
  });
  await consumer.start();
  return consumer;
}
