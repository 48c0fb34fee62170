import { randomBytes } from 'node:crypto';
import { recordEvent, redisKeys } from '@chat/bus';
import { BOT_TYPE, errors, ROLE, isAdmin, type Actor, isGuest } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { hasRealmPermission } from '@chat/realm';
import { botObject, botServices } from '@chat/wire';
import type { Services } from '../context';
import { fakeEmailDomain } from '../lib/emails';
import { looksLikeImage } from '../lib/image-sniff';
import { checkFullName } from '../lib/names';
import { accessBot } from './user-access';
import { botAudience, doRegenerateApiKey } from './api-keys';
import { doCreateAnnouncedUser } from './create-user';
import { doChangeFullName } from './manage-users';
import { checkInterfaceType, checkNewService, checkPayloadUrl, doAddService, doUpdateService, servicesByBot, type ServiceInput } from './bot-services';
import { checkWebhookConfig, doSetBotConfig, type WebhookConfigInput } from './bot-config';

type UserRow = Awaited<ReturnType<Tx['user']['findFirstOrThrow']>>;

/** Bot types this server runs: generic bots, incoming and outgoing webhooks (no embedded bots). */
const ALLOWED_BOT_TYPES: readonly number[] = [BOT_TYPE.GENERIC, BOT_TYPE.INCOMING_WEBHOOK, BOT_TYPE.OUTGOING_WEBHOOK];

/** A bot in GET /bots: the bot object of realm_bot events and register (@chat/wire) with its username. */
export function formatBot(bot: UserRow, realmUrl: string, services: Array<Record<string, unknown>> = []): Record<string, unknown> {
  return { ...botObject(bot, realmUrl, services), username: bot.email };
}

/** Bots and guests cannot own or create bots. */
function checkHumanMember(actor: Actor) {
  if (actor.isBot) throw errors.badRequest('This endpoint does not accept bot requests.');
  if (isGuest(actor)) throw errors.badRequest('Not allowed for guest users');
}

export async function listBots(services: Services, actor: Actor) {
  const bots = await services.db.user.findMany({
    where: { realmId: actor.realmId, isBot: true, isActive: true, ...(isAdmin(actor) ? {} : { botOwnerId: actor.userId }) },
    orderBy: { id: 'asc' },
  });
  const byBot = await servicesByBot(services.db, bots.filter((b) => b.botType === BOT_TYPE.OUTGOING_WEBHOOK).map((b) => b.id));
  return bots.map((b) => formatBot(b, actor.realmUrl, byBot.get(b.id)));
}

/** How long a bot's avatar waits in Redis for the uploads service before it is given up. */
const BOT_AVATAR_HANDOVER_SECONDS = 86_400;

/**
 * POST /bots. With an avatar (the family's web app sends the image with the creation form) the
 * bot is created with an uploaded avatar, as on the family's server, and the image is handed to
 * the uploads service, which owns avatars: it waits in Redis under a random key that the bot's
 * realm_bot `add` event names in its routing; the uploads service's reader of the domain
 * streams stores it and announces the stored avatar (docs/uploads.md, "Avatars").
 */
export async function doCreateBot(
  services: Services,
  actor: Actor,
  input: { fullName: string; shortName: string; botType?: number; avatar?: Buffer } & ServiceInput & WebhookConfigInput,
): Promise<Record<string, unknown>> {
  checkHumanMember(actor);
  const botType = input.botType ?? BOT_TYPE.GENERIC;
  if (botType !== BOT_TYPE.EMBEDDED && !ALLOWED_BOT_TYPES.includes(botType)) throw errors.badRequest('Invalid bot type');
  const shortName = input.shortName.trim();
  if (!shortName || !/^[A-Za-z0-9._-]+$/.test(shortName)) throw errors.badRequest('Bad name or username');
  const fullName = checkFullName(input.fullName);
  // The family's answer where embedded bots are off (its default), after the names are checked.
  if (botType === BOT_TYPE.EMBEDDED) throw errors.badRequest('Embedded bots are not enabled.');
  const email = `${shortName}-bot@${fakeEmailDomain(actor.realmUrl)}`.toLowerCase();
  const service = checkNewService(botType, shortName, input);
  const config = checkWebhookConfig(botType, input);
  if (input.avatar && !looksLikeImage(input.avatar)) throw errors.badImage();
  const handover = input.avatar ? redisKeys(services.config.REDIS_PREFIX).botAvatarHandover(randomBytes(18).toString('base64url')) : null;
  try {
    return await createBot(services, actor, { fullName, email, botType, service, config, avatar: input.avatar && handover ? { key: handover, data: input.avatar } : null });
  } catch (err) {
    // The bot was not created: nobody will come for the image.
    if (handover) await services.redis.del(handover).catch(() => undefined);
    throw err;
  }
}

async function createBot(
  services: Services,
  actor: Actor,
  input: {
    fullName: string;
    email: string;
    botType: number;
    service: Parameters<typeof doAddService>[2] | null;
    config: Record<string, string> | null;
    avatar: { key: string; data: Buffer } | null;
  },
): Promise<Record<string, unknown>> {
  const { fullName, email, botType } = input;
  return services.db.$transaction(async (tx) => {
    const me = await tx.user.findUniqueOrThrow({ where: { id: actor.userId } });
    const allowed =
      (await hasRealmPermission(tx, actor.realmId, 'can_create_bots_group', me)) ||
      (botType === BOT_TYPE.INCOMING_WEBHOOK && (await hasRealmPermission(tx, actor.realmId, 'can_create_write_only_bots_group', me)));
    if (!allowed) throw errors.insufficientPermission();
    if (await tx.user.findFirst({ where: { realmId: actor.realmId, email: { equals: email, mode: 'insensitive' } } })) {
      throw errors.badRequest('Username already in use');
    }
    if (await tx.user.findFirst({ where: { realmId: actor.realmId, fullName, isActive: true } })) {
      throw errors.badRequest('Name is already in use.');
    }
    // Stored before the bot exists, so the event below never names a missing image.
    if (input.avatar) await services.redis.set(input.avatar.key, input.avatar.data, 'EX', BOT_AVATAR_HANDOVER_SECONDS);
    const bot = await doCreateAnnouncedUser(tx, {
      realmId: actor.realmId,
      email,
      fullName,
      role: ROLE.MEMBER,
      isBot: true,
      botType,
      botOwnerId: actor.userId,
      ...(input.avatar ? { avatarSource: 'U' as const } : {}),
    }, actor.realmUrl);
    const service = input.service ? await doAddService(tx, bot.id, input.service) : null;
    if (input.config) await doSetBotConfig(tx, bot.id, input.config);
    await recordEvent(tx, {
      realmId: actor.realmId,
      type: 'realm_bot',
      users: await botAudience(tx, actor.realmId, actor.userId),
      event: { type: 'realm_bot', op: 'add', bot: botObject(bot, actor.realmUrl, service ? botServices([service]) : []) },
      ...(input.avatar ? { routing: { bot_avatar: { key: input.avatar.key, realm_url: actor.realmUrl } } } : {}),
    });
    const f = formatBot(bot, actor.realmUrl);
    return {
      user_id: bot.id,
      api_key: bot.apiKey,
      avatar_url: f.avatar_url,
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
    };
  });
}

export async function doUpdateBot(
  services: Services,
  actor: Actor,
  botId: number,
  input: { fullName?: string; botOwnerId?: number; servicePayloadUrl?: string; serviceInterface?: number; avatar?: Buffer },
): Promise<Record<string, unknown>> {
  if (input.avatar && !looksLikeImage(input.avatar)) throw errors.badImage();
  const payloadUrl = input.servicePayloadUrl === undefined ? undefined : checkPayloadUrl(input.servicePayloadUrl, 'service_payload_url');
  const serviceInterface = payloadUrl === undefined ? input.serviceInterface ?? 1 : checkInterfaceType(input.serviceInterface);
  return services.db.$transaction(async (tx) => {
    const bot = await accessBot(tx, actor, botId);
    if (input.fullName !== undefined && input.fullName.trim() !== '' && input.fullName !== bot.fullName) {
      await doChangeFullName(tx, bot, checkFullName(input.fullName));
    }
    if (input.botOwnerId !== undefined && input.botOwnerId !== bot.botOwnerId) {
      const owner = await tx.user.findFirst({ where: { id: input.botOwnerId, realmId: actor.realmId } });
      if (!owner) throw errors.badRequest('Failed to change owner, no such user');
      if (!owner.isActive) throw errors.badRequest('Failed to change owner, user is deactivated');
      if (owner.isBot) throw errors.badRequest("Failed to change owner, bots can't own other bots");
      const before = await botAudience(tx, actor.realmId, bot.botOwnerId);
      await tx.user.update({ where: { id: bot.id }, data: { botOwnerId: owner.id } });
      const after = await botAudience(tx, actor.realmId, owner.id);
      const lost = before.filter((id) => !after.includes(id));
      if (lost.length) {
        await recordEvent(tx, { realmId: actor.realmId, type: 'realm_bot', users: lost, event: { type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } } });
      }
      const fresh = await tx.user.findUniqueOrThrow({ where: { id: bot.id } });
      const gained = after.filter((id) => !before.includes(id));
      if (gained.length) {
        await recordEvent(tx, { realmId: actor.realmId, type: 'realm_bot', users: gained, event: { type: 'realm_bot', op: 'add', bot: botObject(fresh, actor.realmUrl, (await servicesByBot(tx, [bot.id])).get(bot.id)) } });
      }
      const kept = after.filter((id) => before.includes(id));
      if (kept.length) {
        await recordEvent(tx, { realmId: actor.realmId, type: 'realm_bot', users: kept, event: { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: owner.id } } });
      }
      const everyone = await tx.user.findMany({ where: { realmId: actor.realmId, isActive: true }, select: { id: true }, orderBy: { id: 'asc' } });
      await recordEvent(tx, {
        realmId: actor.realmId,
        type: 'realm_user',
        users: everyone.map((u) => u.id),
        event: { type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: owner.id } },
      });
    }
    if (input.avatar) await doHandOverBotAvatar(services, tx, actor, bot.id, input.avatar);
    const current = await tx.user.findUniqueOrThrow({ where: { id: bot.id } });
    if (payloadUrl !== undefined) await doUpdateService(tx, actor, current, payloadUrl, serviceInterface);
    const f = formatBot(current, actor.realmUrl);
    return {
      full_name: current.fullName,
      avatar_url: f.avatar_url,
      // As the family answers: the service's settings as given (null when not changed).
      service_interface: serviceInterface,
      service_payload_url: payloadUrl ?? null,
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      bot_owner_id: current.botOwnerId,
    };
  });
}

/**
 * A new avatar for an existing bot, handed to the uploads service as at creation: the image
 * waits in Redis under the key that a realm_bot `update` event names, and the uploads service
 * stores it, bumps the avatar's version and announces the new URL.
 */
async function doHandOverBotAvatar(services: Services, tx: Tx, actor: Actor, botId: number, image: Buffer): Promise<void> {
  const key = redisKeys(services.config.REDIS_PREFIX).botAvatarHandover(randomBytes(18).toString('base64url'));
  await services.redis.set(key, image, 'EX', BOT_AVATAR_HANDOVER_SECONDS);
  const bot = await tx.user.update({ where: { id: botId }, data: { avatarSource: 'U' } });
  await recordEvent(tx, {
    realmId: actor.realmId,
    type: 'realm_bot',
    users: await botAudience(tx, actor.realmId, bot.botOwnerId),
    event: { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, avatar_url: formatBot(bot, actor.realmUrl).avatar_url } },
    routing: { bot_avatar: { key, realm_url: actor.realmUrl } },
  });
}

export async function doRegenerateBotKey(services: Services, actor: Actor, botId: number): Promise<string> {
  const bot = await accessBot(services.db, actor, botId);
  return doRegenerateApiKey(services, bot);
}
