/**
 * The bot object of realm_bot events and register's realm_bots (for administrators every bot of
 * the realm, for others their own, deactivated ones included). Outgoing-webhook and embedded
 * bots, default channels of bots and their services do not exist here, so those fields are
 * always empty. The bot's API key is not part of it: register and events would hand every
 * administrator every bot's key; the owner reads it with GET /bots/{id}/api_key.
 */
import type { User } from '@chat/db';
import { avatarUrl, type AvatarRow } from './avatars';

export type BotRow = AvatarRow & Pick<User, 'email' | 'fullName' | 'botType' | 'isActive' | 'botOwnerId'>;

export function botObject(bot: BotRow, realmUrl: string) {
  return {
    user_id: bot.id,
    email: bot.email,
    full_name: bot.fullName,
    bot_type: bot.botType,
    is_active: bot.isActive,
    avatar_url: avatarUrl(bot, realmUrl),
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    owner_id: bot.botOwnerId,
    services: [] as unknown[],
  };
}
