/** The viewer's own data: settings, drafts, recent direct conversations, message bounds. */
import type { Db } from '@chat/db';
import { draftObject } from '@chat/wire';
import { DEFAULT_USER_SETTINGS, EMOJISET_CHOICES, NOTIFICATION_SOUNDS } from '@chat/realm';
import type { StateOptions, Want } from '.';

const RECENT_CONVERSATIONS_LIMIT = 1000;

async function recentPrivateConversations(db: Db, userId: number) {
  const rows = await db.$queryRawUnsafe<Array<{ conversation_id: number; max_message_id: number; member_ids: number[] }>>(
    `SELECT m.conversation_id, max(m.id)::int AS max_message_id, c.member_ids
       FROM user_messages um
       JOIN messages m ON m.id = um.message_id
       JOIN direct_conversations c ON c.id = m.conversation_id
      WHERE um.user_id = $1 AND m.conversation_id IS NOT NULL
      GROUP BY m.conversation_id, c.member_ids
      ORDER BY max_message_id DESC
      LIMIT ${RECENT_CONVERSATIONS_LIMIT}`,
    userId,
  );
  return rows.map((r) => ({
    max_message_id: r.max_message_id,
    user_ids: r.member_ids.filter((id) => id !== userId).sort((a, b) => a - b),
  }));
}

export async function personalSections(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const userId = opts.identity.userId;
  const out: Record<string, unknown> = {};
  const user = userId !== undefined ? await db.user.findUnique({ where: { id: userId } }) : null;
  if (want('user_settings')) {
    const settings = { ...DEFAULT_USER_SETTINGS, ...((user?.settings ?? {}) as Record<string, unknown>) };
    if (user) settings.timezone = user.timezone;
    // The choices clients offer for two of the settings travel with them.
    out.user_settings = { ...settings, emojiset_choices: EMOJISET_CHOICES, available_notification_sounds: NOTIFICATION_SOUNDS };
  }
  if (want('drafts')) {
    // Drafts are shared between a user's clients only while the user allows it.
    const synced = user && (user.settings as Record<string, unknown> | null)?.enable_drafts_synchronization !== false;
    const rows = synced ? await db.draft.findMany({ where: { userId: user.id }, orderBy: [{ lastEditTime: 'asc' }, { id: 'asc' }] }) : [];
    out.drafts = rows.map(draftObject);
  }
  if (want('recent_private_conversations')) {
    out.recent_private_conversations = userId !== undefined ? await recentPrivateConversations(db, userId) : [];
  }
  if (want('message')) {
    const last = userId !== undefined
      ? await db.userMessage.findFirst({ where: { userId }, orderBy: { messageId: 'desc' }, select: { messageId: true } })
      : null;
    out.max_message_id = last?.messageId ?? -1;
  }
  return out;
}
