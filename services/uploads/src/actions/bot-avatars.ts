import type { BotAvatarRouting } from '@chat/contracts';
import type { Services } from '../context';
import { avatarBaseKey, doChangeAvatarFields, renderAvatar, storeAvatarFiles, type RenderedAvatar } from './avatars';

/**
 * A bot created with an avatar (POST /bots with a file, the users service's endpoint): the users
 * service creates the bot with an uploaded avatar, as the family's server does, and leaves the
 * image in Redis under the key its realm_bot `add` event names (`bot_avatar` routing). Avatars
 * are this service's, so its reader of the domain streams stores the image here, then bumps the
 * avatar's version and announces it, so that a client which looked before the file existed looks
 * again. An image that does not decode, or one that waited too long, leaves the bot its Gravatar.
 */

export type BotAvatarOutcome = 'stored' | 'refused' | 'gone' | 'skipped';

export interface BotAvatarHandover extends Pick<BotAvatarRouting['bot_avatar'], 'key'> {
  realmId: number;
  realmUrl: string;
  botId: number;
}

export async function doStoreHandedOverBotAvatar(services: Services, h: BotAvatarHandover): Promise<BotAvatarOutcome> {
  const bot = await services.db.user.findUnique({ where: { id: h.botId } });
  if (!bot || bot.realmId !== h.realmId || !bot.isBot || bot.avatarSource !== 'U') {
    // Nothing to give it to any more (gone, or its avatar changed another way since).
    await services.redis.del(h.key);
    return 'skipped';
  }
  const target = { userId: bot.id, realmId: bot.realmId, realmUrl: h.realmUrl };
  const image = await services.redis.getBuffer(h.key);
  if (!image) {
    // An earlier delivery of this event stored it (the key goes last), or it waited too long.
    const base = avatarBaseKey(services.config.AVATAR_SALT, bot.realmId, bot.id);
    if (await services.storage.exists(`${base}.png`)) return 'stored';
    await doChangeAvatarFields(services, target, 'G');
    return 'gone';
  }
  let rendered: RenderedAvatar;
  try {
    rendered = await renderAvatar(image);
  } catch {
    await doChangeAvatarFields(services, target, 'G');
    await services.redis.del(h.key);
    return 'refused';
  }
  await storeAvatarFiles(services, bot.realmId, bot.id, image, rendered);
  await doChangeAvatarFields(services, target, 'U');
  await services.redis.del(h.key);
  return 'stored';
}
