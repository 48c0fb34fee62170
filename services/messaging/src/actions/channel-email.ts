/**
 * GET /streams/{stream_id}/email_address: the channel's incoming-mail address in the family's
 * format, `<channel slug>.<token>.show-sender@<mail domain>`. The token is one per (channel,
 * creator, sender), made on first request, so the address also says whom mail is posted as.
 * Mail to it is received by the inbound mail listener (actions/inbound-mail.ts, docs/mail.md).
 */
import { randomBytes } from 'node:crypto';
import { errors, isAdmin } from '@chat/contracts';
import type { Tx } from '@chat/db';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { emailGatewayDomain } from '../config';
import { systemBot } from './move-notices';
import { accessStream } from './streams-access';

export const EMAIL_GATEWAY_BOT_NAME = 'Email Gateway';

/**
 * The channel-name part: runs of non-word characters become one hyphen, then the ASCII slug
 * of that (Django's slugify); when the slug lost characters (letters with no ASCII form, or a
 * hyphen at either end) the name part is left out rather than mangled.
 */
export function channelEmailSlug(name: string): string {
  const hyphenated = name.replace(/[^\p{L}\p{N}_]+/gu, '-');
  const slug = hyphenated
    .normalize('NFKD')
    // eslint-disable-next-line no-control-regex -- the range names every ASCII character
    .replace(/[^\x00-\x7f]/g, '')
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/[-\s]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  return [...slug].length === [...hyphenated].length ? slug : '';
}

export function encodeEmailAddress(name: string, token: string, domain: string): string {
  const slug = channelEmailSlug(name);
  return `${slug ? `${slug}.${token}` : token}.show-sender@${domain}`;
}

/** Whom mail to the address is posted as: the email gateway bot, the caller, or a bot they administer. */
async function accessSender(tx: Tx, actor: LoadedActor, senderId: number | undefined): Promise<number> {
  const gateway = await systemBot(tx, actor, 'emailgateway', EMAIL_GATEWAY_BOT_NAME);
  if (senderId === undefined || senderId === gateway.userId) return gateway.userId;
  if (senderId === actor.userId) return actor.userId;
  const bot = await tx.user.findFirst({ where: { id: senderId, realmId: actor.realmId } });
  if (!bot || !bot.isBot) throw errors.badRequest('No such bot');
  if (!isAdmin(actor) && bot.botOwnerId !== actor.userId) throw errors.insufficientPermission();
  return bot.id;
}

export async function accessChannelEmailAddress(services: Services, actor: LoadedActor, streamId: number, senderId: number | undefined): Promise<string> {
  const { stream } = await accessStream(services.db, actor, streamId);
  const token = await services.db.$transaction(async (tx) => {
    const sender = await accessSender(tx, actor, senderId);
    const key = { channelId: stream.id, creatorId: actor.userId, senderId: sender };
    // Two first requests racing: the unique key keeps one row, and both read it back.
    await tx.$executeRawUnsafe(
      `INSERT INTO channel_email_addresses (realm_id, channel_id, creator_id, sender_id, email_token)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (channel_id, creator_id, sender_id) DO NOTHING`,
      actor.realmId,
      stream.id,
      actor.userId,
      sender,
      randomBytes(16).toString('hex'),
    );
    return (await tx.channelEmailAddress.findUniqueOrThrow({ where: { channelId_creatorId_senderId: key } })).emailToken;
  });
  return encodeEmailAddress(stream.name, token, emailGatewayDomain(services.config));
}
