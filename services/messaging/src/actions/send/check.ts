/**
 * The check of a send: `checkSendMessage` settles the sender (caller.ts), resolves and authorises
 * the recipients, checks the topic and renders the content, and returns the plan the write
 * follows (plan.ts). It writes nothing; a channel send's reads are one statement (reads.ts).
 */
import { rawQuery, type Realm } from '@chat/db';
import { errors } from '@chat/contracts';
import { groupSettingMemberIds } from '@chat/realm';
import type { Services } from '../../context';
import { messageKind, parseStreamTarget } from '../../lib/recipients';
import { normalizeContent, normalizeTopic } from '../../lib/text';
import { loadRenderContext, renderMarkdown, type RenderContext } from '../../markdown';
import { checkStreamPostAllowed, effectiveTopicsPolicy } from '../streams-access';
import { checkWildcardMentions } from '../mentions';
import { loadSender, type SendCaller, type Sender } from './caller';
import { checkDirectMessageAllowed, resolveDirectRecipients } from './direct';
import type { SendInput, SendPlan, Target } from './plan';
import { readChannelSend, type SendReadings } from './reads';

/**
 * Checks a send by `caller` (caller.ts: a request's identity, or a sender already read) and
 * returns its plan. A caller who may not act is refused before anything the reads found.
 */
export async function checkSendMessage(services: Services, caller: SendCaller, input: SendInput): Promise<SendPlan> {
  const ids = caller.identity;
  const kind = messageKind(input.type);
  if ((input.queueId === undefined) !== (input.localId === undefined)) {
    throw errors.badRequest('Missing local_id or queue_id: both or neither must be given');
  }
  const content = normalizeContent(input.content);
  const { db } = services;
  let target: Target;
  let realm: Realm | null = null;
  let readings: SendReadings | undefined;
  let sender: Sender;
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
    // The caller's row came with the channel's read.
    sender = await loadSender(db, caller, reads.caller);
    const { actor, user } = sender;
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
    // The realm's string id (for the message object built before the write, plan-write.ts) and
    // the recipients are read beside the caller's row; a refused caller is refused first.
    const stringId = rawQuery<{ string_id: string }>(db, 'SELECT string_id FROM realms WHERE id = $1', [ids.realmId], 'send_realm_string_id');
    const found = resolveDirectRecipients(db, ids, input.to);
    stringId.catch(() => undefined);
    found.catch(() => undefined);
    sender = await loadSender(db, caller);
    const recipients = await found;
    realmStringId = (await stringId)[0]?.string_id;
    await checkDirectMessageAllowed(db, sender.actor, sender.user ?? sender.actor.userId, recipients);
    target = { kind: 'private', recipients: recipients.map((r) => ({ id: r.id, email: r.email, fullName: r.fullName })) };
  }
  const { actor, user } = sender;
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
