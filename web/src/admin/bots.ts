/** Pure helpers of editing bots as an administrator: their type's name and the edit request. */
import type { User } from '@chat/client';
import type { StringKey } from '../i18n';

const BOT_TYPES: Record<number, StringKey> = {
  1: 'admin.bots.type.1',
  2: 'admin.bots.type.2',
  3: 'admin.bots.type.3',
  4: 'admin.bots.type.4',
};

export function botTypeKey(type: number | null | undefined): StringKey {
  return BOT_TYPES[type ?? 1] ?? 'admin.bots.type.unknown';
}

export interface BotEdit {
  fullName: string;
  /** null: the bot has no owner and none was chosen. */
  ownerId: number | null;
}

/** PATCH /bots/{id}'s parameters: only what changed (an empty object: nothing to send). */
export function botEditParams(bot: Pick<User, 'full_name' | 'bot_owner_id'>, edit: BotEdit): { full_name?: string; bot_owner_id?: number } {
  const params: { full_name?: string; bot_owner_id?: number } = {};
  const name = edit.fullName.trim();
  if (name && name !== bot.full_name) params.full_name = name;
  if (edit.ownerId !== null && edit.ownerId !== (bot.bot_owner_id ?? null)) params.bot_owner_id = edit.ownerId;
  return params;
}

/** Whether the bot, as the store now holds it, shows the change sent (its event has come). */
export function botEditApplied(bot: Pick<User, 'full_name' | 'bot_owner_id'>, sent: { full_name?: string; bot_owner_id?: number }): boolean {
  return (sent.full_name === undefined || bot.full_name === sent.full_name) && (sent.bot_owner_id === undefined || bot.bot_owner_id === sent.bot_owner_id);
}

/** Who may own a bot: active people who are not bots, by name; the current owner stays listed. */
export function ownerChoices(users: Iterable<User>, currentOwnerId: number | null | undefined): User[] {
  return [...users]
    .filter((u) => !u.is_bot && (u.is_active || u.user_id === currentOwnerId))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
}
