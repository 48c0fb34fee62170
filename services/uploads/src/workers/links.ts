import { startGroupConsumer, type EntryHead, type StreamConsumer, type StreamEntry } from '@chat/bus';
import { isOutboxType } from '@chat/contracts';
import type { Services } from '../context';
import { syncMessageLinks } from '../actions/links';
import { doStoreHandedOverBotAvatar, type BotAvatarHandover } from '../actions/bot-avatars';
import { linkedPathIds } from '../lib/files';

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

const LINK_EVENTS = new Set(['message', 'update_message', 'delete_message']);

/**
 * Whether an entry can mean work, decided from its type and JSON bytes without parsing it. Edits
 * and deletions always may. A new message may, as linksNothingNew says, unless its payload
 * carries its source (`raw_content`, as every send writes it) and "/user_uploads/" is nowhere in
 * its text: JSON can write those characters, in the source or anywhere else, only as they are or
 * escaped with a backslash ("\/", "\u..."), so a text holding neither links no upload. A quote
 * inside a JSON string is escaped, so `"raw_content":` followed by a quote is that key with a
 * string value (message payloads have no such key but the top-level one).
 */
export function mayLinkUploads(head: Pick<EntryHead, 'type' | 'payload'>): boolean {
  if (!LINK_EVENTS.has(head.type)) return false;
  if (head.type !== 'message') return true;
  // ASCII searched in UTF-8 bytes finds what it would find in the decoded text.
  const json = head.payload;
  const carriesSource = json.includes('"raw_content": "') || json.includes('"raw_content":"');
  return !carriesSource || json.includes('/user_uploads/') || json.includes('\\/') || json.includes('\\u');
}

/**
 * Whether an entry may hand over a bot's avatar: a realm_bot event whose payload carries the
 * `bot_avatar` routing (a new bot's `add`, or the `update` of a bot given a new avatar),
 * decided from its bytes as above.
 */
export function mayHandOverBotAvatar(head: Pick<EntryHead, 'type' | 'payload'>): boolean {
  return head.type === 'realm_bot' && head.payload.includes('"bot_avatar"');
}

/** The handover a realm_bot entry names, if it names one of ours. */
function botAvatarHandover(services: Services, entry: StreamEntry): BotAvatarHandover | null {
  if (!isOutboxType(entry, 'realm_bot') || (entry.payload.event.op !== 'add' && entry.payload.event.op !== 'update')) return null;
  const routing = entry.payload.bot_avatar;
  const botId = entry.payload.event.bot.user_id;
  if (!routing || typeof botId !== 'number' || !routing.key.startsWith(services.keys.botAvatarHandover(''))) return null;
  return { realmId: entry.realmId, realmUrl: routing.realm_url, botId, key: routing.key };
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
 * message row, so replaying or reordering events converges on the same links. It also stores
 * the avatar a new bot was created with (actions/bot-avatars.ts), which the users service hands
 * over through its realm_bot event.
 */
export async function startLinkConsumer(services: Services, consumerName: string): Promise<StreamConsumer> {
  // Until a message's links are recorded (read every GROUP_READ_INTERVAL_MS), and should an event
  // be given up on, access still works through the direct check of recent messages
  // (actions/access.ts); only the event's bookkeeping is late or lost.
  return startGroupConsumer({
    name: 'uploads',
    log: services.log,
    redis: services.redis,
    keys: services.keys,
    group: services.keys.groups.uploads,
    consumer: consumerName,
    // Most messages link no upload: they are acknowledged without being parsed.
    select: (heads) => heads.map((h) => mayLinkUploads(h) || mayHandOverBotAvatar(h)),
    handle: async (entry) => {
      const handover = botAvatarHandover(services, entry);
      if (!handover && !LINK_EVENTS.has(entry.type)) return;
      if (linksNothingNew(entry)) return;
      if (handover) await doStoreHandedOverBotAvatar(services, handover);
      for (const id of messageIds(entry)) await syncMessageLinks(services, id, entry.type === 'message');
    },
  });
}
