/**
 * The text of a reminder, as the reference server words it: what the user asked to be reminded
 * of (a link to the channel message, or "the following direct message"), their note quoted, and
 * the message itself quoted under a link to it (polls and todo lists are only named).
 */
import type { Db, Message, Tx } from '@chat/db';
import { errors, LIMITS } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import { truncate } from '../lib/text';
import { topicUrl } from '../markdown/urls';

/** Trailing blanks and leading blank lines go, as for message content; too long is an error. */
export function normalizeReminderNote(raw: string): string {
  const note = raw.trimEnd().replace(/^\n+/, '');
  if ([...note].length > LIMITS.maxReminderNoteLength) {
    throw errors.badRequest(`Maximum reminder note length: ${LIMITS.maxReminderNoteLength} characters`);
  }
  return note;
}

/** `#**channel>topic@id**`, or a plain link when the names would break that syntax. */
export function messageLinkSyntax(streamId: number, streamName: string, topic: string, messageId: number, realmUrl: string): string {
  if (/[>*`$]/.test(streamName) || /[*`$]/.test(topic)) {
    return `[#${streamName} > ${topic} @ 💬](${realmUrl}${topicUrl(streamId, streamName, topic)}/near/${messageId})`;
  }
  return `#**${streamName}>${topic}@${messageId}**`;
}

/** A fence of backticks longer than any fence inside the quoted text, so the quote stays whole. */
export function unusedFence(text: string): string {
  let length = 3;
  for (const m of text.matchAll(/^ {0,3}(`{3,}|~{3,})/gm)) length = Math.max(length, m[1].length + 1);
  return '`'.repeat(length);
}

export async function reminderContent(db: Db | Tx, actor: LoadedActor, message: Message, note: string): Promise<string> {
  const sender = await db.user.findUniqueOrThrow({ where: { id: message.senderId }, select: { id: true, fullName: true } });
  let content: string;
  let url: string;
  const noted = note ? ` Note:\n > ${note}` : '';
  if (message.streamId !== null) {
    const stream = await db.stream.findUniqueOrThrow({ where: { id: message.streamId } });
    content = `You requested a reminder for ${messageLinkSyntax(stream.id, stream.name, message.topic, message.id, actor.realmUrl)}.${noted}`;
    url = `${actor.realmUrl}${topicUrl(stream.id, stream.name, message.topic)}/near/${message.id}`;
  } else {
    const conversation = message.conversationId === null ? null : await db.directConversation.findUnique({ where: { id: message.conversationId } });
    const members = [...(conversation?.memberIds ?? [message.senderId])].sort((a, b) => a - b);
    content = `You requested a reminder for the following direct message.${noted}`;
    url = `${actor.realmUrl}/#narrow/dm/${members.join(',')}/near/${message.id}`;
  }
  const who = `@_**${sender.fullName}|${sender.id}**`;
  content += '\n\n';
  if (message.content.startsWith('/poll')) return `${content}${who} [sent](${url}) a poll.`;
  if (message.content.startsWith('/todo')) return `${content}${who} [sent](${url}) a todo list.`;
  content += `${who} [said](${url}):\n`;
  const fence = unusedFence(message.content);
  const room = LIMITS.maxMessageLength - [...content].length - `${fence}quote\n\n${fence}`.length;
  return `${content}${fence}quote\n${truncate(message.content, room, '\n[message truncated]')}\n${fence}`;
}
