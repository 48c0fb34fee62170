import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create as createTar } from 'tar';
import type { Db } from '@chat/db';
import { EXPORT_TYPE } from '@chat/wire';
import type { ExportStore } from './store';

/** Messages per messages-NNNNNN.json file, as the family's exports split them. */
const MESSAGES_PER_FILE = 1000;
const EMAIL_VISIBILITY_NOBODY = 4;

const token = (bytes: number) => randomBytes(bytes).toString('base64url');

/** People who let administrators export their private data (user setting allow_private_data_export). */
export async function consentingUserIds(db: Db, realmId: number): Promise<number[]> {
  const users = await db.user.findMany({ where: { realmId, isActive: true, isBot: false }, select: { id: true, settings: true } });
  return users.filter((u) => (u.settings as Record<string, unknown>).allow_private_data_export === true).map((u) => u.id);
}

/**
 * Which messages an export holds: public channels' always; with consent, also private
 * channels' and direct messages that a consenting person received.
 */
export async function exportableMessageWhere(db: Db, realmId: number, exportType: number) {
  const publicChannel = { recipientType: 'stream', stream: { inviteOnly: false } };
  if (exportType === EXPORT_TYPE.PUBLIC) return { realmId, ...publicChannel };
  const consenting = await consentingUserIds(db, realmId);
  return { realmId, OR: [publicChannel, { userMessages: { some: { userId: { in: consenting } } } }] };
}

async function writeJson(dir: string, name: string, data: unknown) {
  await writeFile(path.join(dir, name), JSON.stringify(data, null, 2));
}

async function realmData(db: Db, realmId: number, exportType: number) {
  const realm = await db.realm.findUniqueOrThrow({ where: { id: realmId } });
  const users = await db.user.findMany({ where: { realmId }, orderBy: { id: 'asc' } });
  const channels = await db.stream.findMany({
    where: { realmId, ...(exportType === EXPORT_TYPE.PUBLIC ? { inviteOnly: false } : {}) },
    orderBy: { id: 'asc' },
  });
  const subscriptions = await db.subscription.findMany({ where: { streamId: { in: channels.map((c) => c.id) } }, orderBy: { id: 'asc' } });
  return {
    realm: {
      id: realm.id, string_id: realm.stringId, name: realm.name, description: realm.description,
      date_created: realm.dateCreated.getTime() / 1000, settings: realm.settings,
    },
    users: users.map((u) => {
      const settings = u.settings as Record<string, unknown>;
      // A person who shows their address to nobody is exported without it; never an API key.
      const hidden = settings.email_address_visibility === EMAIL_VISIBILITY_NOBODY;
      return {
        id: u.id, email: u.email, delivery_email: hidden ? null : u.deliveryEmail, full_name: u.fullName, role: u.role,
        is_bot: u.isBot, bot_type: u.botType, bot_owner_id: u.botOwnerId, is_active: u.isActive,
        date_joined: u.dateJoined.getTime() / 1000, timezone: u.timezone,
        ...(exportType === EXPORT_TYPE.FULL_WITH_CONSENT ? { settings } : {}),
      };
    }),
    channels: channels.map((c) => ({
      id: c.id, name: c.name, description: c.description, invite_only: c.inviteOnly, is_web_public: c.isWebPublic,
      history_public_to_subscribers: c.historyPublicToSubscribers, is_archived: c.isArchived, creator_id: c.creatorId,
      date_created: c.dateCreated.getTime() / 1000,
    })),
    subscriptions: subscriptions.map((s) => ({
      user_id: s.userId, stream_id: s.streamId, active: s.active, color: s.color, is_muted: s.isMuted, pin_to_top: s.pinToTop,
    })),
  };
}

/** Writes the messages in files of MESSAGES_PER_FILE, reading them in id order a page at a time. */
async function writeMessages(db: Db, dir: string, realmId: number, exportType: number): Promise<number> {
  const where = await exportableMessageWhere(db, realmId, exportType);
  let after = 0;
  let files = 0;
  let total = 0;
  for (;;) {
    const page = await db.message.findMany({
      where: { ...where, id: { gt: after } },
      orderBy: { id: 'asc' },
      take: MESSAGES_PER_FILE,
      include: { conversation: { select: { memberIds: true } } },
    });
    if (!page.length) break;
    files += 1;
    await writeJson(dir, `messages-${String(files).padStart(6, '0')}.json`, {
      messages: page.map((m) => ({
        id: m.id, sender_id: m.senderId, type: m.recipientType, stream_id: m.streamId,
        recipient_ids: m.conversation?.memberIds ?? null, topic: m.topic, content: m.content,
        rendered_content: m.renderedContent, date_sent: m.dateSent.getTime() / 1000,
        last_edit_time: m.lastEditTime ? m.lastEditTime.getTime() / 1000 : null,
      })),
    });
    total += page.length;
    after = page[page.length - 1]!.id;
  }
  return total;
}

/**
 * Writes the realm's export as a gzipped tarball and stores it under its key,
 * exports/<realm id>/<random>/chat-export-<realm>-<random>.tar.gz, which it returns.
 */
export async function writeRealmExport(db: Db, store: ExportStore, realmId: number, exportType: number): Promise<{ path: string; size: number }> {
  const realm = await db.realm.findUniqueOrThrow({ where: { id: realmId } });
  const name = `chat-export-${realm.stringId || 'root'}-${token(6)}`;
  const work = await mkdtemp(path.join(tmpdir(), 'chat-export-'));
  try {
    const dir = path.join(work, name);
    await mkdir(dir);
    const data = await realmData(db, realmId, exportType);
    const messages = await writeMessages(db, dir, realmId, exportType);
    await writeJson(dir, 'realm.json', { export_type: exportType, ...data });
    await writeJson(dir, 'stats.json', { users: data.users.length, channels: data.channels.length, subscriptions: data.subscriptions.length, messages });
    const tarball = path.join(work, `${name}.tar.gz`);
    await createTar({ gzip: true, file: tarball, cwd: work, portable: true }, [name]);
    const key = path.posix.join('exports', String(realmId), token(18), `${name}.tar.gz`);
    await store.put(tarball, key);
    return { path: key, size: (await stat(tarball)).size };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
