/**
 * Mail received by the email gateway (workers/inbound-mail): whom an address names and whether
 * mail to it may be posted (checked while the sender's server is still in the SMTP dialogue, so
 * a refusal reaches it as a 5xx), and posting a mail through the send path every message takes.
 */
import { createHash } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import { ApiError } from '@chat/contracts';
import type { Stream, User } from '@chat/db';
import {
  decodeChannelAddress,
  findMissedMessageAddress,
  gatewayLocalPart,
  isMissedMessageToken,
  SYSTEM_BOTS,
  useMissedMessageAddress,
  type ChannelAddressOptions,
  type ReplyConversation,
} from '@chat/realm';
import type { Services } from '../context';
import { actorOf, type LoadedActor } from '../lib/caller';
import { composeContent, isForwarded, mailBodyMarkdown, topicOfSubject } from '../lib/mail-body';
import { uploadFile } from '../lib/uploads-client';
import { actingCaller, checkSendMessage, doSendMessage, type SendInput } from './send';
import { checkStreamPostAllowed } from './streams-access';

/** A refusal in the SMTP dialogue: the reply code and text the sending server gets. */
export class MailRefusal extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

const unknownAddress = (message: string) => new MailRefusal(550, `5.1.1 ${message}`);
const notAllowed = (message: string) => new MailRefusal(550, `5.7.1 ${message}`);

export type InboundTarget =
  /** `checkedAs`: the address's creator, when the Email Gateway bot posts (the creator's access counts). */
  | { kind: 'channel'; address: string; realmId: number; senderId: number; checkedAs: number; channelId: number; options: ChannelAddressOptions }
  | { kind: 'reply'; address: string; realmId: number; senderId: number; addressId: number; conversation: ReplyConversation };

export interface InboundContext {
  domain: string;
  realmUrl: (stringId: string) => string;
  uploadsUrl: string;
}

async function activeUser(services: Services, realmId: number, userId: number): Promise<User> {
  const user = await services.db.user.findUnique({ where: { id: userId } });
  if (!user || user.realmId !== realmId || !user.isActive) throw notAllowed('The account this address posts as is deactivated.');
  const realm = await services.db.realm.findUniqueOrThrow({ where: { id: realmId }, select: { deactivated: true } });
  if (realm.deactivated) throw notAllowed('This organization has been deactivated.');
  return user;
}

async function actorFor(services: Services, ctx: InboundContext, user: User): Promise<LoadedActor> {
  const realm = await services.db.realm.findUniqueOrThrow({ where: { id: user.realmId }, select: { stringId: true } });
  return actorOf(user, ctx.realmUrl(realm.stringId));
}

/** Whether `actor` may post in the channel now, as the send would decide. */
async function checkMayPost(services: Services, actor: LoadedActor, channelId: number): Promise<Stream> {
  const stream = await services.db.stream.findFirst({ where: { id: channelId, realmId: actor.realmId } });
  if (!stream) throw unknownAddress('The channel of this address no longer exists.');
  const sub = await services.db.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId: stream.id } } });
  try {
    await checkStreamPostAllowed(services.db, actor, stream, !!sub?.active);
  } catch (err) {
    if (err instanceof ApiError) throw notAllowed(err.message);
    throw err;
  }
  return stream;
}

/** What mail to `address` would post, or the refusal for it (unknown, used up, not allowed). */
export async function checkInboundRecipient(services: Services, ctx: InboundContext, address: string): Promise<InboundTarget> {
  const local = gatewayLocalPart(address, ctx.domain);
  if (local === null) throw unknownAddress('Address not recognized by gateway.');
  if (isMissedMessageToken(local)) {
    const reply = await findMissedMessageAddress(services.db, local);
    if (!reply) throw unknownAddress('This notification reply address is invalid.');
    if (reply.unusable === 'expired') throw unknownAddress('This notification reply address has expired.');
    if (reply.unusable === 'used') throw unknownAddress('This notification reply address has already been used.');
    const user = await activeUser(services, reply.realmId, reply.userId);
    if (reply.conversation.type === 'channel') await checkMayPost(services, await actorFor(services, ctx, user), reply.conversation.channelId);
    return { kind: 'reply', address, realmId: reply.realmId, senderId: user.id, addressId: reply.id, conversation: reply.conversation };
  }
  const decoded = decodeChannelAddress(local);
  if (!decoded) throw unknownAddress('Address not recognized by gateway.');
  const row = await services.db.channelEmailAddress.findUnique({ where: { emailToken: decoded.token } });
  if (!row) throw unknownAddress('Bad channel token from email recipient.');
  const sender = await activeUser(services, row.realmId, row.senderId);
  // Mail posted as the gateway's bot is allowed as far as the address's creator may post (the family's rule).
  const viaGatewayBot = sender.isBot && sender.botOwnerId === null && sender.email.startsWith(`${SYSTEM_BOTS.emailGateway.local}@`);
  const checked = viaGatewayBot ? await activeUser(services, row.realmId, row.creatorId) : sender;
  await checkMayPost(services, await actorFor(services, ctx, checked), row.channelId);
  return { kind: 'channel', address, realmId: row.realmId, senderId: sender.id, checkedAs: checked.id, channelId: row.channelId, options: decoded.options };
}

/** Each attachment stored as the sender, as a Markdown link (brackets cannot be escaped in a link's text). */
async function attachmentLinks(services: Services, ctx: InboundContext, actor: LoadedActor, mail: ParsedMail): Promise<string> {
  const identity = { realmId: actor.realmId, realmUrl: actor.realmUrl, userId: actor.userId, email: actor.email, role: actor.role, isBot: actor.isBot };
  const links: string[] = [];
  for (const part of mail.attachments) {
    if (!part.filename) continue;
    const stored = await uploadFile(
      { uploadsUrl: ctx.uploadsUrl, internalSecret: services.config.INTERNAL_SECRET },
      identity,
      { filename: part.filename, contentType: part.contentType || 'application/octet-stream', content: part.content },
    );
    links.push(`[${stored.filename.replace(/[[\]]/g, '')}](${stored.url})`);
  }
  return links.join('\n');
}

function sendInputOf(target: InboundTarget, mail: ParsedMail, content: string): SendInput {
  // A mail sent again (the sending server retrying after a lost answer) is posted once.
  const idempotencyKey = mail.messageId ? `mail:${createHash('sha256').update(`${mail.messageId}\n${target.address.toLowerCase()}`).digest('hex')}` : undefined;
  const base = { content, client: 'Internal', idempotencyKey };
  if (target.kind === 'channel') {
    const gatewayBot = target.checkedAs !== target.senderId ? { postAllowedFor: 'address-creator' as const } : {};
    return { ...base, ...gatewayBot, type: 'stream', to: target.channelId, topic: topicOfSubject(mail.subject) };
  }
  const c = target.conversation;
  if (c.type === 'channel') return { ...base, type: 'stream', to: c.channelId, topic: c.topic };
  return { ...base, type: 'private', to: c.userIds.length ? c.userIds : [target.senderId] };
}

/**
 * Posts one mail to its target through the send path (every rule of a send applies) and returns
 * the message id. A reply address's one use is taken first and given back if the send fails.
 */
export async function doPostInboundMail(services: Services, ctx: InboundContext, target: InboundTarget, mail: ParsedMail): Promise<number> {
  const user = await activeUser(services, target.realmId, target.senderId);
  const actor = await actorFor(services, ctx, user);
  const options: ChannelAddressOptions =
    target.kind === 'channel' ? { ...target.options, includeQuotes: target.options.includeQuotes ?? isForwarded(mail.subject) } : {};
  // The creator's right to post is checked again now, as the send checks a sender's own.
  if (target.kind === 'channel' && target.checkedAs !== target.senderId) {
    await checkMayPost(services, await actorFor(services, ctx, await activeUser(services, target.realmId, target.checkedAs)), target.channelId);
  }
  if (target.kind === 'reply' && !(await useMissedMessageAddress(services.db, target.addressId))) {
    throw unknownAddress('This notification reply address has already been used.');
  }
  try {
    const links = await attachmentLinks(services, ctx, actor, mail);
    const content = composeContent({
      preamble: options.showSender ? `From: ${mail.from?.text ?? ''}\n` : '',
      body: mailBodyMarkdown(mail, options),
      postamble: links ? `\n${links}` : '',
    });
    const plan = await checkSendMessage(services, actingCaller(actor, user), sendInputOf(target, mail, content));
    return (await doSendMessage(services, plan)).id;
  } catch (err) {
    if (target.kind === 'reply') {
      await services.db.missedMessageEmailAddress.update({ where: { id: target.addressId }, data: { timesUsed: { decrement: 1 } } });
    }
    if (err instanceof ApiError) throw new MailRefusal(550, `5.7.1 ${err.message}`);
    throw err;
  }
}
