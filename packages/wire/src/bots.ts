/**
 * The bot object of realm_bot events and register's realm_bots (for administrators every bot of
 * the realm, for others their own, deactivated ones included). Embedded bots and default
 * channels of bots do not exist here, so those fields are always empty; `services` lists an
 * outgoing-webhook bot's service (botServices). The bot's API key is not part of it: register
 * and events would hand every administrator every bot's key; the owner reads it with
 * GET /bots/{id}/api_key.
 */
import type { BotService, User } from '@chat/db';
import { avatarUrl, type AvatarRow } from './avatars';

export type BotRow = AvatarRow & Pick<User, 'email' | 'fullName' | 'botType' | 'isActive' | 'botOwnerId'>;

/** An outgoing-webhook bot's services as the family lists them (its service token included, as there). */
export function botServices(rows: Array<Pick<BotService, 'baseUrl' | 'interface' | 'token'>>): Array<Record<string, unknown>> {
  return rows.map((s) => ({ base_url: s.baseUrl, interface: s.interface, token: s.token }));
}

export function botObject(bot: BotRow, realmUrl: string, services: Array<Record<string, unknown>> = []) {
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
    services: services as unknown[],
  };
}
