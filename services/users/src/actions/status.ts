import { recordEvent } from '@chat/bus';
import { errors, INT4_MAX, LIMITS, type Actor, isAdmin } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { emojiCodeForName, emojiProblem, familyEmojiCode, isExtraEmoji } from '@chat/emoji';
import { userStatusObject } from '@chat/wire';
import type { Services } from '../context';
import { usersWhoCanAccess } from '../lib/audience';
import { accessUserById, checkCanAccessUser, viewerOf } from './read-users';

export interface StatusInput {
  statusText?: string;
  away?: boolean;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

interface Emoji {
  emojiName: string;
  emojiCode: string;
  reactionType: string;
}

/** Resolves and checks the emoji of a status the way reactions check theirs. */
async function checkEmoji(tx: Tx, realmId: number, input: StatusInput): Promise<Emoji | undefined> {
  if (input.emojiName === undefined) {
    if (input.emojiCode !== undefined || input.reactionType !== undefined) {
      throw errors.badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
    }
    return undefined;
  }
  const name = input.emojiName;
  if (name === '') return { emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' };
  let code = input.emojiCode;
  let type = input.reactionType;
  if (code === undefined || type === undefined) {
    // Only what was left out is looked up by name: a code given with the name is kept and
    // checked against it below, so a name that does not match its code is refused.
    let found: [string, string];
    const custom = await tx.realmEmoji.findFirst({ where: { realmId, name, deactivated: false } });
    if (custom) found = [String(custom.id), 'realm_emoji'];
    else if (isExtraEmoji(name)) found = [name, 'svc_extra_emoji'];
    else if (emojiCodeForName(name)) found = [emojiCodeForName(name)!, 'unicode_emoji'];
    else throw errors.badRequest(`Emoji '${name}' does not exist`);
    code ??= found[0];
    type ??= found[1];
  }
  const problem = await emojiProblem(name, code, type, (id) =>
    /^\d+$/.test(id) && Number(id) <= INT4_MAX ? tx.realmEmoji.findFirst({ where: { id: Number(id), realmId } }) : Promise.resolve(null),
  );
  if (problem) throw errors.badRequest(problem);
  // The status keeps the family's spelling of a Unicode emoji's code.
  if (type === 'unicode_emoji') code = familyEmojiCode(code)!;
  return { emojiName: name, emojiCode: code, reactionType: type };
}

function checkText(input: StatusInput): string | undefined {
  if (input.statusText === undefined) return undefined;
  const text = input.statusText.trim();
  if ([...text].length > LIMITS.statusTextLength) {
    throw errors.badRequest(`status_text is too long (limit: ${LIMITS.statusTextLength} characters)`);
  }
  return text;
}

/**
 * Sets a status and announces it: the caller's own (/users/me/status), or through
 * /users/{id}/status, which only administrators (people or bots of that role) may use.
 */
export async function doUpdateStatus(
  services: Services,
  actor: Actor,
  target: { id: number; asAdmin: boolean },
  input: StatusInput,
): Promise<void> {
  if (target.asAdmin && !isAdmin(actor)) throw errors.insufficientPermission();
  const targetId = target.id;
  const text = checkText(input);
  if (text === undefined && input.away === undefined && input.emojiName === undefined) {
    if (input.emojiCode !== undefined || input.reactionType !== undefined) {
      throw errors.badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
    }
    throw errors.badRequest('Client did not pass any new values.');
  }
  await services.db.$transaction(async (tx) => {
    const user = await accessUserById(tx, actor.realmId, targetId);
    if (!user.isActive) throw errors.badRequest('User is deactivated');
    const emoji = await checkEmoji(tx, actor.realmId, input);
    const data = {
      ...(text !== undefined ? { statusText: text } : {}),
      ...(emoji ?? {}),
    };
    await tx.userStatus.upsert({ where: { userId: user.id }, create: { userId: user.id, realmId: actor.realmId, ...data }, update: data });
    const event: Record<string, unknown> = { type: 'user_status', user_id: user.id };
    if (input.away !== undefined) event.away = input.away;
    if (text !== undefined) event.status_text = text;
    if (emoji) Object.assign(event, { emoji_name: emoji.emojiName, emoji_code: emoji.emojiCode, reaction_type: emoji.reactionType });
    await recordEvent(tx, { realmId: actor.realmId, type: 'user_status', users: await usersWhoCanAccess(tx, actor.realmId, user), event });
  });
}

/**
 * A user's status as clients read it: only the parts that are set. Someone the actor may not
 * access (can_access_all_users_group) is `Insufficient permission`.
 */
export async function getStatus(services: Services, actor: Actor, targetId: number): Promise<Record<string, unknown>> {
  const target = await accessUserById(services.db, actor.realmId, targetId);
  await checkCanAccessUser(services.db, actor.realmId, viewerOf(actor), target);
  return userStatusObject(await services.db.userStatus.findUnique({ where: { userId: target.id } }));
}
