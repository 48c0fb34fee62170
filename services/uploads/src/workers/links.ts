import { StreamConsumer, type StreamEntry } from '@chat/bus';
import type { Services } from '../context';
import { syncMessageLinks } from '../actions/links';
import { linkedPathIds } from '../lib/files';

/** Times one entry is tried (its batch retried with backoff in between) before it is skipped. */
const MAX_ENTRY_ATTEMPTS = 5;

function messageIds(entry: StreamEntry): number[] {
  const event = (entry.payload.event ?? {}) as Record<string, unknown>;
  const ids = new Set<number>();
  const add = (v: unknown) => {
    if (typeof v === 'number' && Number.isSafeInteger(v)) ids.add(v);
  };
  if (entry.type === 'message') add((event.message as { id?: unknown } | undefined)?.id);
  add(event.message_id);
  if (Array.isArray(event.message_ids)) event.message_ids.forEach(add);
  return [...ids];
}

/**
 * A new message whose source (carried in the event as `raw_content`) links to no upload has no
 * links to record or drop: skipped without reading the message back. Edits and deletions are
 * always handled, as they may drop links the message had.
 */
function linksNothingNew(entry: StreamEntry): boolean {
  const raw = entry.payload.raw_content;
  return entry.type === 'message' && typeof raw === 'string' && linkedPathIds(raw).length === 0;
}

/**
 * Reads the domain streams as the `uploads` consumer group and keeps the links between
 * messages and uploaded files in step with the messages table: a sent message claims the files
 * it links to, an edit adds and drops links, a deletion drops them. Handling re-reads the
 * message row, so replaying or reordering events converges on the same links.
 */
export async function startLinkConsumer(s: Services, consumerName: string): Promise<StreamConsumer> {
  const attempts = new Map<string, number>();
  const consumer = new StreamConsumer({
    redis: s.redis,
    keys: s.keys,
    group: s.keys.groups.uploads,
    consumer: consumerName,
    blockMs: 1000,
    onError: (err) => s.log.warn({ err }, 'uploads: stream consumer error'),
    handler: async (entries) => {
      for (const entry of entries) {
        if (entry.type !== 'message' && entry.type !== 'update_message' && entry.type !== 'delete_message') continue;
        if (linksNothingNew(entry)) continue;
        const key = `${entry.partition}/${entry.streamId}`;
        try {
          for (const id of messageIds(entry)) await syncMessageLinks(s, id, entry.type === 'message');
          attempts.delete(key);
        } catch (err) {
          const n = (attempts.get(key) ?? 0) + 1;
          if (n >= MAX_ENTRY_ATTEMPTS) {
            // Access still works through the direct check of recent messages; only this
            // event's bookkeeping is lost.
            attempts.delete(key);
            s.log.error({ err, type: entry.type, outboxId: entry.outboxId }, 'uploads: giving up on an event');
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
