/**
 * Emoji reactions: names and codes checked against the family's emoji names (@chat/emoji) and
 * the realm's custom emoji.
 */
import type { Db, Tx } from '@chat/db';
import { errors, flagBit } from '@chat/contracts';
import { emojiCodeForName, emojiCodeSpellings, emojiProblem, familyEmojiCode, isExtraEmoji } from '@chat/emoji';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';
import { accessMessage, messageAudience } from './message-access';

export interface EmojiRequest {
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

interface CustomEmoji {
  id: string;
  name: string;
  deactivated: boolean;
}

/** The realm's custom emoji, where the uploads area keeps them (table realm_emoji). */
async function customEmoji(db: Db | Tx, realmId: number, where: { name?: string; id?: string }): Promise<CustomEmoji | null> {
  const [exists] = await db.$queryRawUnsafe<Array<{ t: string | null }>>(`SELECT to_regclass('realm_emoji')::text AS t`);
  if (!exists?.t) return null;
  try {
    const rows = await db.$queryRawUnsafe<Array<{ id: number; name: string; deactivated: boolean }>>(
      `SELECT id, name, deactivated FROM realm_emoji WHERE realm_id = $1 AND ($2::text IS NULL OR name = $2) AND ($3::text IS NULL OR id::text = $3) ORDER BY deactivated, id DESC LIMIT 1`,
      realmId,
      where.name ?? null,
      where.id ?? null,
    );
    return rows[0] ? { id: String(rows[0].id), name: rows[0].name, deactivated: rows[0].deactivated } : null;
  } catch {
    return null;
  }
}

/** emoji_code and reaction_type for a name, when the client sent only the name. */
async function resolveByName(db: Db | Tx, realmId: number, name: string): Promise<{ code: string; type: string }> {
  const custom = await customEmoji(db, realmId, { name });
  if (custom && !custom.deactivated) return { code: custom.id, type: 'realm_emoji' };
  if (isExtraEmoji(name)) return { code: name, type: 'svc_extra_emoji' };
  const code = emojiCodeForName(name);
  if (code) return { code, type: 'unicode_emoji' };
  throw errors.badRequest(`Emoji '${name}' does not exist`);
}

/** Validates an (name, code, type) triple the way a new reaction must be (@chat/emoji emojiProblem). */
async function checkEmoji(db: Db | Tx, realmId: number, name: string, code: string, type: string): Promise<void> {
  const problem = await emojiProblem(name, code, type, (id) => customEmoji(db, realmId, { id }));
  if (problem) throw errors.badRequest(problem);
}

async function reactionEvent(tx: Tx, actor: LoadedActor, op: 'add' | 'remove', messageId: number, streamId: number | null, r: { name: string; code: string; type: string }) {
  await recordEvent(tx, {
    realmId: actor.realmId,
    type: 'reaction',
    users: await messageAudience(tx, [messageId], [streamId]),
    event: {
      type: 'reaction',
      op,
      message_id: messageId,
      emoji_name: r.name,
      emoji_code: r.code,
      reaction_type: r.type,
      user_id: actor.userId,
      user: { user_id: actor.userId, email: actor.email, full_name: actor.fullName, is_mirror_dummy: false },
    },
  });
}

/**
 * The codes a stored reaction of this emoji may carry: a Unicode code with and without FE0F
 * (clients send either; rows are written with the family's spelling), other codes as they are.
 */
function storedSpellings(type: string, code: string): string[] {
  return type === 'unicode_emoji' ? emojiCodeSpellings(code) : [code];
}

export async function doAddReaction(services: Services, actor: LoadedActor, messageId: number, req: EmojiRequest): Promise<void> {
  if (!req.emojiName) throw errors.missingArgument('emoji_name');
  const name = req.emojiName;
  await services.db.$transaction(async (tx) => {
    const { message, userMessage } = await accessMessage(tx, actor, messageId);
    let code = req.emojiCode;
    let type = req.reactionType;
    if (code === undefined) ({ code, type } = { ...(await resolveByName(tx, actor.realmId, name)), ...(type ? { type } : {}) });
    type ??= 'unicode_emoji';
    if (type === 'zulip_extra_emoji') type = 'svc_extra_emoji';
    const codes = storedSpellings(type, code);
    if (type === 'unicode_emoji') code = familyEmojiCode(code) ?? code;
    const mine = await tx.reaction.findFirst({ where: { messageId, userId: actor.userId, reactionType: type, emojiCode: { in: codes } } });
    if (mine) throw errors.reactionAlreadyExists();
    // Someone already reacted with this emoji: join their reaction under its name and code, so
    // a renamed emoji or another spelling of its code does not split one reaction in two.
    const existing = await tx.reaction.findFirst({ where: { messageId, reactionType: type, emojiCode: { in: codes } } });
    const emojiName = existing?.emojiName ?? name;
    const emojiCode = existing?.emojiCode ?? code;
    if (!existing) await checkEmoji(tx, actor.realmId, emojiName, emojiCode, type);
    if (!userMessage) {
      await tx.userMessage.create({ data: { userId: actor.userId, messageId, flags: flagBit('read') | flagBit('historical') } });
    }
    await tx.reaction.create({ data: { messageId, userId: actor.userId, emojiName, emojiCode, reactionType: type } });
    await reactionEvent(tx, actor, 'add', messageId, message.streamId, { name: emojiName, code: emojiCode, type });
  });
}

export async function doRemoveReaction(services: Services, actor: LoadedActor, messageId: number, req: EmojiRequest): Promise<void> {
  await services.db.$transaction(async (tx) => {
    const { message } = await accessMessage(tx, actor, messageId);
    let code = req.emojiCode;
    let type = req.reactionType === 'zulip_extra_emoji' ? 'svc_extra_emoji' : req.reactionType;
    if (code === undefined) {
      if (!req.emojiName) throw errors.badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
      const resolved = await resolveByName(tx, actor.realmId, req.emojiName).catch(() => null);
      // A custom emoji deleted since the reaction: find the reaction by its stored name.
      const byName = await tx.reaction.findFirst({ where: { messageId, userId: actor.userId, emojiName: req.emojiName, ...(type ? { reactionType: type } : {}) } });
      code = byName?.emojiCode ?? resolved?.code;
      type ??= byName?.reactionType ?? resolved?.type;
      if (code === undefined) throw errors.badRequest('Invalid emoji code');
    }
    type ??= 'unicode_emoji';
    const reaction = await tx.reaction.findFirst({ where: { messageId, userId: actor.userId, reactionType: type, emojiCode: { in: storedSpellings(type, code) } } });
    if (!reaction) throw errors.reactionDoesNotExist();
    await tx.reaction.delete({ where: { id: reaction.id } });
    await reactionEvent(tx, actor, 'remove', messageId, message.streamId, { name: reaction.emojiName, code: reaction.emojiCode, type });
  });
}
