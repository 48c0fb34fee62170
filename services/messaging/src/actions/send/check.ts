/**
 * Sending a message: `checkSendMessage` resolves and authorises the recipients and renders the
 * content; `doSendMessage` reads what the write needs outside the transaction, then writes the
 * message, one user_messages row per recipient and the outbox event in one short transaction
 * (write.ts).
 */
import { rawQuery, type Realm, type Stream, type Tx, type User } from '@chat/db';
import { errors } from '@chat/contracts';
import { callerOfRow, loadActorRow, type LoadedActor } from '../../lib/context';
import type { AuthedIdentity } from '@chat/kit';
import type { Services } from '../../context';
import { messageKind, parseDirectTargets, parseStreamTarget } from '../../lib/recipients';
import { normalizeContent, normalizeTopic } from '../../lib/text';
import { loadRenderContext, renderMarkdown, type RenderContext, type RenderResult } from '../../markdown';
import { checkStreamPostAllowed, effectiveTopicsPolicy } from '../streams-access';
import { checkWildcardMentions } from '../mentions';
import { groupSettingMemberIds, hasRealmPermission, isInGroupSetting, realmGroupSetting, type MemberRef } from '@chat/realm';
import { canWriteAlone, loadSendFacts, writeMessage, writeMessageAlone } from './write';

export { sendMessageInTx, type SendResult } from './write';
export { usersAlertedBy } from './reads';
import { readChannelSend, type SendReadings } from './reads';
import type { SendResult } from './write';
import { earlierSend, isSendKeyConflict, recordSendKey, sendKeyOf } from './guarantees';
import { settlePendingPreviews } from '../thumbnail-renders';

export interface SendInput {
  type: string;
  to: unknown;
  content: string;
  topic?: string;
  queueId?: string;
  localId?: string;
  readBySender?: boolean;
  client: string;
  /** The client's `Idempotency-Key` header, if any (see guarantees.ts). */
  idempotencyKey?: string;
  /**
   * Whether the sender may post in the channel was decided for someone else: mail to a channel
   * address posted by the Email Gateway bot is allowed as far as the address's creator may post
   * (actions/inbound-mail.ts, the family's rule). Never set from a request.
   */
  postAllowedFor?: 'address-creator';
}

export type Target =
  | { kind: 'stream'; stream: Stream; topic: string; subscriberIds: number[] }
  /** fullName when read with the recipients (a send through the API): the object is then built before the write. */
  | { kind: 'private'; recipients: Array<Pick<User, 'id' | 'email'> & { fullName?: string }> };

export interface SendPlan {
  target: Target;
  content: string;
  rendered: RenderResult;
  input: SendInput;
  /**
   * Copies that start read whatever the sender's settings (server-generated notices: the
   * user whose action caused them has seen it).
   */
  readFor?: Set<number>;
  /** What the checks read that the write reuses rather than reads again (absent for notices). */
  held?: SendHeld;
}

export interface SendHeld {
  /** The realm, read for channel messages. */
  realm: Realm | null;
  linkifiers: RenderContext['linkifiers'];
  /** The sender's row, when the caller loaded it (a send through the API). */
  sender?: User;
  /** Topic facts, muters and alert words, read beside the channel (a channel send). */
  readings?: SendReadings;
  /** The realm's string id, read beside the caller for a direct message. */
  realmStringId?: string;
}

/**
 * The caller of a send through the API, before their row is read: the identity's ids are enough
 * to start the send's reads, and the row is read with them rather than first.
 */
export interface ApiCaller {
  identity: AuthedIdentity;
}

export { defaultReadBySender } from './write';

/** A direct message's recipient, with what the permission checks and its object read. */
type DirectRecipient = Pick<User, 'id' | 'email' | 'fullName' | 'isActive' | 'realmId' | 'role' | 'dateJoined' | 'isBot'>;

/** `actor`: the sender's realm and id (the caller's identity will do: this runs beside its row's read). */
async function resolveDirectRecipients(tx: Tx, actor: { realmId: number; userId: number }, to: unknown): Promise<DirectRecipient[]> {
  const parsed = parseDirectTargets(to);
  const select = { id: true, email: true, fullName: true, isActive: true, realmId: true, role: true, dateJoined: true, isBot: true } as const;
  let users: DirectRecipient[];
  if ('ids' in parsed) {
    users = await tx.user.findMany({ where: { id: { in: parsed.ids }, realmId: actor.realmId }, select });
    const found = new Set(users.map((u) => u.id));
    const missing = parsed.ids.find((id) => !found.has(id));
    if (missing !== undefined) throw errors.badRequest(`Invalid user ID ${missing}`);
  } else {
    users = await tx.user.findMany({
      where: { realmId: actor.realmId, email: { in: parsed.emails, mode: 'insensitive' } },
      select,
    });
    const found = new Set(users.map((u) => u.email.toLowerCase()));
    const missing = parsed.emails.find((e) => !found.has(e.toLowerCase()));
    if (missing !== undefined) throw errors.badRequest(`Invalid email '${missing}'`);
  }
  const inactive = users.find((u) => !u.isActive && u.id !== actor.userId);
  if (inactive) throw errors.badRequest(`'${inactive.email}' is no longer a member of this organization.`);
  // The sender may be listed; only a message to oneself keeps them as the sole recipient.
  return users.filter((u) => u.id !== actor.userId);
}

/**
 * `who` is the acting person, with `sender` their row when the caller holds it, or the caller of
 * a send through the API (ApiCaller), whose row a channel send reads with everything else; a
 * caller who may not act is refused before anything the reads found.
 */
export async function checkSendMessage(services: Services, who: LoadedActor | ApiCaller, input: SendInput, sender?: User): Promise<SendPlan & { actor: LoadedActor }> {
  const ids = 'identity' in who ? who.identity : who;
  const kind = messageKind(input.type);
  if ((input.queueId === undefined) !== (input.localId === undefined)) {
    throw errors.badRequest('Missing local_id or queue_id: both or neither must be given');
  }
  const content = normalizeContent(input.content);
  const { db } = services;
  let target: Target;
  let realm: Realm | null = null;
  let readings: SendReadings | undefined;
  let actor: LoadedActor;
  let user: User | undefined;
  let renderContext: Promise<RenderContext>;
  let realmStringId: string | undefined;
  if (kind === 'stream') {
    const to = parseStreamTarget(input.to);
    // The topic's facts are read with the channel; a topic refused below is refused after what
    // was refused before it (the caller, then the channel), as when they were read one by one.
    const read = readChannelSend(db, ids.realmId, ids.userId, to, topicOrNull(input.topic), content);
    // What the content refers to is looked up beside it, in the same round trip. It is awaited
    // below; until then a failure must not count as unhandled.
    renderContext = loadRenderContext(db, ids.realmId, ids.realmUrl, content, ids.userId, read.then((r) => r.linkifiers));
    renderContext.catch(() => undefined);
    const reads = await read;
    ({ actor, user } = 'identity' in who ? callerOfRow(reads.caller, who.identity) : { actor: who, user: sender ?? reads.caller ?? undefined });
    const { stream, subscriberIds } = reads;
    if (!stream) throw 'id' in to ? errors.streamIdDoesNotExist(to.id) : errors.streamDoesNotExist(to.name);
    realm = reads.realm;
    readings = reads.readings;
    if (input.topic === undefined) throw errors.badRequest('Missing topic');
    const topic = normalizeTopic(input.topic);
    const policy = effectiveTopicsPolicy(stream, realm);
    if (topic === '' && policy === 'disable_empty_topic') {
      throw errors.badRequest('Sending messages to the general chat is not allowed in this channel.');
    }
    if (topic !== '' && policy === 'empty_topic_only') {
      throw errors.badRequest('Only the general chat topic is allowed in this channel.');
    }
    if (input.postAllowedFor === undefined) await checkStreamPostAllowed(db, actor, stream, subscriberIds.includes(actor.userId), user);
    target = { kind: 'stream', stream, topic, subscriberIds };
  } else {
    renderContext = loadRenderContext(db, ids.realmId, ids.realmUrl, content, ids.userId);
    renderContext.catch(() => undefined);
    // The realm's string id (for the message object built before the write, write.ts) and
    // the recipients are read beside the caller's row; a refused caller is refused first.
    const stringId = rawQuery<{ string_id: string }>(db, 'SELECT string_id FROM realms WHERE id = $1', [ids.realmId], 'send_realm_string_id');
    const found = resolveDirectRecipients(db, ids, input.to);
    stringId.catch(() => undefined);
    found.catch(() => undefined);
    ({ actor, user } = 'identity' in who ? await loadActorRow(db, who.identity) : { actor: who, user: sender });
    const recipients = await found;
    realmStringId = (await stringId)[0]?.string_id;
    await checkDirectMessageAllowed(db, actor, user ?? actor.userId, recipients);
    target = { kind: 'private', recipients: recipients.map((r) => ({ id: r.id, email: r.email, fullName: r.fullName })) };
  }
  const ctx = await renderContext;
  const rendered = renderMarkdown(content, ctx);
  if (rendered.mentionedGroupIds.size) {
    const members = await groupSettingMemberIds(db, actor.realmId, { direct_members: [], direct_subgroups: [...rendered.mentionedGroupIds] });
    members.forEach((id) => rendered.mentionedUserIds.add(id));
  }
  if (target.kind === 'stream') {
    await checkWildcardMentions(services, actor, target.stream, target.topic, target.subscriberIds.length, rendered);
  }
  return { actor, target, content, rendered, input, held: { realm, linkifiers: ctx.linkifiers, sender: user, readings, realmStringId } };
}

function topicOrNull(topic: string | undefined): string | null {
  try {
    return topic === undefined ? null : normalizeTopic(topic);
  } catch {
    return null;
  }
}

/**
 * Realm direct-message policies: starting a conversation needs direct_message_initiator_group;
 * any conversation needs a participant in direct_message_permission_group. Conversations with
 * oneself or with a bot are always allowed. The recipients' rows (and the sender's, when read)
 * carry what the group settings test, and the setting and the conversation are read side by side.
 */
async function checkDirectMessageAllowed(db: Services['db'], actor: LoadedActor, sender: MemberRef, recipients: DirectRecipient[]): Promise<void> {
  if (!recipients.length || actor.isBot) return;
  if (recipients.some((r) => r.isBot)) return;
  const memberKey = [...new Set([actor.userId, ...recipients.map((r) => r.id)])].sort((a, b) => a - b).join(',');
  const [permission, exists] = await Promise.all([
    realmGroupSetting(db, actor.realmId, 'direct_message_permission_group'),
    db.directConversation.findUnique({ where: { realmId_memberKey: { realmId: actor.realmId, memberKey } }, select: { id: true } }),
  ]);
  const authorizers = await Promise.all([sender, ...recipients].map((m) => isInGroupSetting(db, actor.realmId, permission, m)));
  if (!authorizers.some(Boolean)) throw errors.badRequest('This conversation does not include any users who can authorize it.');
  if (!exists && !(await hasRealmPermission(db, actor.realmId, 'direct_message_initiator_group', sender))) {
    throw errors.badRequest('You do not have permission to initiate direct message conversations.');
  }
}

export async function doSendMessage(services: Services, actor: LoadedActor, plan: SendPlan): Promise<SendResult> {
  const key = sendKeyOf(plan.input.idempotencyKey, plan.input.queueId, plan.input.localId);
  if (key) {
    const earlier = await earlierSend<SendResult>(services.db, actor.userId, key);
    if (earlier) return earlier;
  }
  // Read on the pool, in parallel, before the transaction: it then holds its connection and
  // locks only for the writes, a fixed number of statements whatever the recipient count.
  const facts = await loadSendFacts(services.db, actor, plan);
  // The usual channel message needs no transaction: its rows and its event are one statement.
  if (!key && canWriteAlone(actor, plan, facts)) return requestLinkPreviews(services, actor, plan, await writeMessageAlone(services.db, actor, plan, facts));
  let result: SendResult;
  try {
    result = await services.db.$transaction(async (tx) => {
      const written = await writeMessage(tx, actor, plan, facts);
      if (key) await recordSendKey(tx, actor.userId, key, written.id, written);
      return written;
    });
  } catch (err) {
    // The same send, retried while the first was still in flight, committed first.
    const first = key && isSendKeyConflict(err) ? await earlierSend<SendResult>(services.db, actor.userId, key) : null;
    if (first) return first;
    throw err;
  }
  // An image shown loading may have got its thumbnail while this send was being written, its
  // event finding no message yet (actions/thumbnail-renders.ts). The send stands either way.
  await settlePendingPreviews(services, actor.realmId, plan.rendered.html).catch((err) => services.log.warn({ err }, 'could not settle image previews'));
  return requestLinkPreviews(services, actor, plan, result);
}

/** A message with pages to preview gets them from the link preview job (actions/link-previews.ts). */
async function requestLinkPreviews(services: Services, actor: LoadedActor, plan: SendPlan, result: SendResult): Promise<SendResult> {
  if (plan.rendered.linksForPreview.length) await services.linkPreviews?.request({ messageId: result.id, realmId: actor.realmId, realmUrl: actor.realmUrl });
  return result;
}
