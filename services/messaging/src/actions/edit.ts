/**
 * PATCH /messages/{id}: content edits, topic edits and moves to another channel (one message,
 * it and later ones, or the whole topic), with edit history and one update_message event.
 * `checkEditMessage` validates and authorises the edit and renders the new content, reading
 * only; `doEditMessage` writes it and records the event in one transaction.
 */
import type { Db, Message, Stream, Tx } from '@chat/db';
import { errors, flagBit, apiFlagNames, isModerator, type UpdateMessageEvent } from '@chat/contracts';
import { hasRealmPermission, realmPolicies } from '@chat/realm';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';
import { normalizeContent, normalizeTopic } from '../lib/text';
import { loadRenderContext, renderMarkdown, type RenderResult } from '../markdown';
import { accessMessage, messageAudience } from './message-access';
import { checkStreamPostAllowed, effectiveTopicsPolicy, streamAccessOf } from './streams-access';
import { canAdministerChannel, hasChannelPermission } from './channel-permissions';
import { mentionFlags } from './mentions';
import { usersAlertedBy } from './send';
import { moveMessages, RESOLVED_PREFIX } from './move';
import { sendMoveNotices, type MoveNotices } from './move-notices';
import { topicLinks } from '../lib/wire';
import { compileLinkifier } from '../markdown/dialect';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';
const PROPAGATE_MODES: readonly string[] = ['change_one', 'change_later', 'change_all'];

export interface EditRequest {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: string;
  /** Notification-bot notices of a move (defaults as the reference server: false / true). */
  notifyOldThread?: boolean;
  notifyNewThread?: boolean;
}

/** An edit checkEditMessage allowed, with what the write needs that reading could give. */
export interface EditPlan {
  request: EditRequest;
  propagateMode: PropagateMode;
  /** The message as it was checked; doEditMessage re-checks if it has changed since. */
  message: Message;
  content?: { text: string; rendered: RenderResult };
  /** Present when the topic or the channel changes. */
  move?: {
    newTopic: string;
    resolving: boolean;
    /** The new channel; null when the message stays in its channel. */
    target: Stream | null;
    destination: Stream;
    oldStream: Stream;
    /** The new topic's links, when the topic changes. */
    topicLinks?: Array<{ text: string; url: string }>;
  };
}

type Reader = Db | Tx;

const MENTION_BITS = flagBit('mentioned') | flagBit('stream_wildcard_mentioned') | flagBit('topic_wildcard_mentioned');

function overLimit(message: Message, limitSeconds: number | null): boolean {
  return limitSeconds !== null && limitSeconds > 0 && Date.now() - message.dateSent.getTime() > limitSeconds * 1000;
}

/**
 * Who may move messages, as the family's check_update_message decides: resolving a topic takes
 * the realm's can_resolve_topics_group or either channel's; a topic move the realm's
 * can_move_messages_between_topics_group, or moving within either channel (organization and
 * channel administrators, can_move_messages_within_channel_group); a channel move the realm's
 * can_move_messages_between_channels_group, or moving out of the old channel (organization and
 * channel administrators, can_move_messages_out_of_channel_group). Moves other than resolving
 * are limited in time except for moderators.
 */
async function checkMovePermission(
  db: Reader,
  actor: LoadedActor,
  message: Message,
  kind: 'topic' | 'stream',
  policies: ReturnType<typeof realmPolicies>,
  resolving: boolean,
  channels: { old: Stream; target: Stream | null },
) {
  const either = async (test: (s: Stream) => Promise<boolean>) =>
    (await test(channels.old)) || (channels.target !== null && channels.target.id !== channels.old.id && (await test(channels.target)));
  const administers = (s: Stream) => canAdministerChannel(db, actor, s);
  if (resolving) {
    const allowed =
      (await hasRealmPermission(db, actor.realmId, 'can_resolve_topics_group', actor.userId)) ||
      (await either((s) => hasChannelPermission(db, s, 'can_resolve_topics_group', actor.userId)));
    if (!allowed) throw errors.badRequest("You don't have permission to resolve topics in this channel.");
    return;
  }
  const allowed =
    kind === 'topic'
      ? (await hasRealmPermission(db, actor.realmId, 'can_move_messages_between_topics_group', actor.userId)) ||
        (await either(async (s) => (await administers(s)) || hasChannelPermission(db, s, 'can_move_messages_within_channel_group', actor.userId)))
      : (await hasRealmPermission(db, actor.realmId, 'can_move_messages_between_channels_group', actor.userId)) ||
        (await administers(channels.old)) ||
        (await hasChannelPermission(db, channels.old, 'can_move_messages_out_of_channel_group', actor.userId));
  if (!allowed) throw errors.badRequest(kind === 'topic' ? "You don't have permission to edit this message" : "You don't have permission to move this message");
  if (isModerator(actor)) return;
  const limit = kind === 'topic' ? policies.move_messages_within_stream_limit_seconds : policies.move_messages_between_streams_limit_seconds;
  if (overLimit(message, limit)) {
    throw errors.badRequest(kind === 'topic' ? "The time limit for editing this message's topic has passed." : "The time limit for editing this message's channel has passed.");
  }
}

/** Validates and authorises an edit and renders its content; reads only. */
export async function checkEditMessage(db: Reader, actor: LoadedActor, messageId: number, req: EditRequest): Promise<EditPlan> {
  if (!PROPAGATE_MODES.includes(req.propagateMode)) throw errors.badRequest('Invalid propagate_mode');
  if (req.content === undefined && req.topic === undefined && req.streamId === undefined) throw errors.badRequest('Nothing to change');
  if (req.propagateMode !== 'change_one' && req.topic === undefined && req.streamId === undefined) {
    throw errors.badRequest('Invalid propagate_mode without topic edit');
  }
  const { message } = await accessMessage(db, actor, messageId);
  const realm = await db.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
  const policies = realmPolicies(realm.settings);
  const isStream = message.streamId !== null;
  if (!isStream && (req.topic !== undefined || req.streamId !== undefined)) {
    throw errors.badRequest(req.streamId !== undefined ? 'Direct messages cannot be moved to channels.' : 'Direct messages cannot have topics.');
  }
  if (req.content !== undefined && req.streamId !== undefined && req.streamId !== message.streamId) {
    throw errors.badRequest('Cannot change message content while changing channel');
  }
  const plan: EditPlan = { request: req, propagateMode: req.propagateMode as PropagateMode, message };

  if (req.content !== undefined) {
    if (message.senderId !== actor.userId) throw errors.badRequest("You don't have permission to edit this message");
    if (!policies.allow_message_editing) throw errors.badRequest('Your organization has turned off message editing');
    if (overLimit(message, policies.message_content_edit_limit_seconds)) throw errors.badRequest('The time limit for editing this message has passed');
    const text = req.content.trim() === '' ? '(deleted)' : normalizeContent(req.content);
    plan.content = { text, rendered: renderMarkdown(text, await loadRenderContext(db, actor.realmId, actor.realmUrl, text, actor.userId)) };
  }

  if (req.topic !== undefined || req.streamId !== undefined) {
    const newTopic = req.topic !== undefined ? normalizeTopic(req.topic) : message.topic;
    const resolving = newTopic.replace(RESOLVED_PREFIX, '') === message.topic.replace(RESOLVED_PREFIX, '') && newTopic !== message.topic;
    const changesStream = req.streamId !== undefined && req.streamId !== message.streamId;
    const oldStream = await db.stream.findUniqueOrThrow({ where: { id: message.streamId! } });
    let target: Stream | null = null;
    let targetSubscribed = false;
    // The new channel is looked up first, as the family does: one the mover may not see is
    // `Invalid channel ID` whatever their permissions.
    if (changesStream) {
      target = await db.stream.findFirst({ where: { id: req.streamId, realmId: actor.realmId } });
      if (!target) throw errors.invalidStreamId();
      const sub = await db.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId: target.id } } });
      if (!streamAccessOf(actor, target, sub).canSee) throw errors.invalidStreamId();
      targetSubscribed = !!sub?.active;
    }
    const channels = { old: oldStream, target };
    if (newTopic !== message.topic) await checkMovePermission(db, actor, message, 'topic', policies, resolving, channels);
    if (target) {
      await checkMovePermission(db, actor, message, 'stream', policies, false, channels);
      await checkStreamPostAllowed(db, actor, target, targetSubscribed);
    }
    const destination = target ?? oldStream;
    const policy = effectiveTopicsPolicy(destination, realm);
    if (newTopic === '' && policy === 'disable_empty_topic') throw errors.badRequest('Sending messages to the general chat is not allowed in this channel.');
    if (newTopic !== '' && policy === 'empty_topic_only') throw errors.badRequest('Only the general chat topic is allowed in this channel.');
    if (newTopic !== message.topic || changesStream) {
      plan.move = { newTopic, resolving, target, destination, oldStream };
      if (newTopic !== message.topic) {
        const linkifiers = await db.linkifier.findMany({ where: { realmId: actor.realmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
        plan.move.topicLinks = topicLinks(newTopic, linkifiers.map((l) => ({ re: compileLinkifier(l.pattern), urlTemplate: l.urlTemplate })));
      }
    }
  }
  return plan;
}

/** Whether the message still reads as it did when the edit was checked. */
function unchangedSince(checked: Message, current: Message | null): boolean {
  return (
    current !== null &&
    current.content === checked.content &&
    current.renderedContent === checked.renderedContent &&
    current.topic === checked.topic &&
    current.streamId === checked.streamId
  );
}

/** Writes a checked edit, its edit history, the move and the update_message event. */
export async function doEditMessage(services: Pick<Services, 'db' | 'linkPreviews'>, actor: LoadedActor, checked: EditPlan): Promise<void> {
  const written = await services.db.$transaction(async (tx) => {
    // Another edit or move may have committed since the check: the history, the moved range and
    // the event must follow the message as it is now, so the checks run again against it.
    const current = await tx.message.findUnique({ where: { id: checked.message.id } });
    const plan = unchangedSince(checked.message, current) ? checked : await checkEditMessage(tx, actor, checked.message.id, checked.request);
    await writeEdit(tx, actor, plan);
    return plan;
  });
  // New content is rendered without page previews: the link preview job adds them again.
  if (written.content?.rendered.linksForPreview.length) {
    await services.linkPreviews?.request({ messageId: written.message.id, realmId: actor.realmId, realmUrl: actor.realmUrl });
  }
}

async function writeEdit(tx: Tx, actor: LoadedActor, plan: EditPlan): Promise<void> {
  const { message, request: req } = plan;
  const now = new Date();
  const event: UpdateMessageEvent = {
    type: 'update_message',
    user_id: actor.userId,
    edit_timestamp: Math.floor(now.getTime() / 1000),
    message_id: message.id,
    // Every message the edit touched, known once the move (if any) is done.
    message_ids: [message.id],
    rendering_only: false,
  };
  if (message.streamId !== null) event.stream_id = message.streamId;
  let historyEntry: Record<string, unknown> = { user_id: actor.userId, timestamp: Math.floor(now.getTime() / 1000) };

  if (plan.content) {
    const { text: content, rendered } = plan.content;
    historyEntry = { ...historyEntry, prev_content: message.content, prev_rendered_content: message.renderedContent };
    Object.assign(event, {
      orig_content: message.content,
      orig_rendered_content: message.renderedContent,
      content,
      rendered_content: rendered.html,
      is_me_message: rendered.isMeMessage,
    });
    await tx.message.update({
      where: { id: message.id },
      data: {
        content,
        renderedContent: rendered.html,
        isMeMessage: rendered.isMeMessage,
        hasLink: rendered.hasLink,
        hasImage: rendered.hasImage,
        hasAttachment: rendered.hasAttachment,
        lastEditTime: now,
      },
    });
    await refreshContentFlags(tx, message, rendered, content);
  }

  let moved = [message.id];
  let losers: number[] = [];
  let notices: MoveNotices | null = null;
  const target = plan.move?.target ?? null;
  if (plan.move) {
    const { newTopic, resolving, destination, oldStream } = plan.move;
    const result = await moveMessages(tx, actor, message, plan.propagateMode, newTopic, target, now, resolving);
    moved = result.movedIds;
    losers = result.losers;
    // Every move names the topic it left, as the family's clients need to follow it.
    event.orig_subject = message.topic;
    if (newTopic !== message.topic) {
      Object.assign(event, { orig_subject: message.topic, subject: newTopic, topic_links: plan.move.topicLinks });
      historyEntry = { ...historyEntry, prev_topic: message.topic, topic: newTopic };
    }
    if (target) {
      event.new_stream_id = target.id;
      historyEntry = { ...historyEntry, prev_stream: message.streamId, stream: target.id };
    }
    event.propagate_mode = req.propagateMode;
    event.stream_name = oldStream.name;
    notices = {
      notifyOld: req.notifyOldThread ?? false,
      notifyNew: req.notifyNewThread ?? true,
      oldStream,
      newStream: destination,
      oldTopic: message.topic,
      newTopic,
      movedIds: moved,
      targetId: message.id,
      propagateMode: req.propagateMode,
      contentEdited: req.content !== undefined,
    };
  }
  event.message_ids = moved;
  if (Object.keys(historyEntry).length > 2) await prependHistory(tx, message.id, historyEntry);
  const audience = (await messageAudience(tx, moved, [message.streamId, target?.id ?? null])).filter((id) => !losers.includes(id));
  await recordEvent(tx, {
    realmId: actor.realmId,
    type: 'update_message',
    users: audience,
    event,
    routing: { user_flags: await flagsAfterEdit(tx, message.id, audience) },
  });
  if (notices) await sendMoveNotices(tx, actor, notices);
}

/**
 * Each recipient's flags for the edited message after the edit, so clients notice a mention
 * the edit added or removed. Recipients without a copy read it through channel history: ['read'].
 */
async function flagsAfterEdit(tx: Tx, messageId: number, users: number[]): Promise<Record<string, string[]>> {
  const copies = await tx.userMessage.findMany({ where: { messageId, userId: { in: users } }, select: { userId: true, flags: true } });
  const byUser = new Map(copies.map((c) => [c.userId, apiFlagNames(BigInt(c.flags))]));
  return Object.fromEntries(users.map((id) => [String(id), byUser.get(id) ?? ['read']]));
}

/** Edit history is kept most recent first, on the message itself. */
export async function prependHistory(tx: Tx, messageId: number, entry: Record<string, unknown>): Promise<void> {
  const m = await tx.message.findUniqueOrThrow({ where: { id: messageId }, select: { editHistory: true } });
  const history = Array.isArray(m.editHistory) ? (m.editHistory as Record<string, unknown>[]) : [];
  await tx.message.update({ where: { id: messageId }, data: { editHistory: [entry, ...history] as never } });
}

/**
 * Mentions and alert words can change with content: recompute those bits of every existing
 * copy, as sending sets them (the sender's own alert words do not flag their message).
 */
async function refreshContentFlags(tx: Tx, message: Message, rendered: RenderResult, content: string): Promise<void> {
  const rows = await tx.userMessage.findMany({ where: { messageId: message.id } });
  const alerted = await usersAlertedBy(tx, rows.map((r) => r.userId).filter((id) => id !== message.senderId), content);
  const alertBit = flagBit('has_alert_word');
  for (const r of rows) {
    let flags = (r.flags & ~(MENTION_BITS | alertBit)) | mentionFlags(r.userId, rendered, message.streamId !== null, new Set());
    if (alerted.has(r.userId)) flags |= alertBit;
    if (flags !== r.flags) await tx.userMessage.update({ where: { userId_messageId: { userId: r.userId, messageId: message.id } }, data: { flags } });
  }
}
