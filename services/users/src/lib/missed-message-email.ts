import { MENTION_TRIGGERS, type Trigger } from '@chat/notify';
import type { MailMessage } from '../workers/mail';
import { escapeHtml } from './render';
import { unsubscribeHeaders } from './unsubscribe';

/** One message shown in a missed-message email (a missed one, or context before it). */
export interface MailedMessage {
  id: number;
  senderName: string;
  /** The Markdown source (the text part) and the rendered HTML (the HTML part). */
  content: string;
  html: string;
}

/** One conversation's missed messages: what one email is about. */
export interface MissedConversation {
  where: { kind: 'channel'; channel: { id: number; name: string }; topic: string } | { kind: 'direct'; others: Array<{ id: number; fullName: string }> };
  /** Oldest first, context included. */
  messages: MailedMessage[];
  /** How many of them were missed (context not counted). */
  missedCount: number;
  /** Why the person is being told (each missed message's trigger). */
  triggers: Set<Trigger>;
  /** Who sent the messages that call for the mail (for a mention, those who mentioned). */
  senders: string[];
  /** The conversation in the web app. */
  narrowUrl: string;
}

export interface MissedMailContext {
  to: string;
  from: { name: string; address: string };
  replyTo: string;
  realm: { name: string; url: string };
  /** Null when content may be shown; otherwise who forbade it. */
  contentHiddenBy: 'user' | 'realm' | null;
  /** `[<realm name>]` at the end of the subject (realm_name_in_email_notifications_policy). */
  realmInSubject: boolean;
  unsubscribeUrl: string;
}

/** The family's names for a group of people: "A and B", "A, B, and C", "A, B, and 2 others". */
function groupName(names: string[]): string {
  if (names.length <= 2) return names.join(' and ');
  if (names.length === 3) return `${names[0]}, ${names[1]}, and ${names[2]}`;
  return `${names[0]}, ${names[1]}, and ${names.length - 2} others`;
}

/** A topic resolved with the family's marker is named without it, and the subject shows ✔. */
function topicLabel(topic: string): string {
  return topic.startsWith('✔ ') ? `✔ ${topic.slice(2)}` : topic;
}

function subjectOf(c: MissedConversation, ctx: MissedMailContext): string {
  let subject: string;
  if (ctx.contentHiddenBy) subject = 'New messages';
  else if (c.where.kind === 'channel') subject = `#${c.where.channel.name} > ${topicLabel(c.where.topic)}`;
  else if (c.where.others.length > 1) subject = `Group DMs with ${groupName(c.where.others.map((o) => o.fullName))}`;
  else subject = `DMs with ${c.senders.join(', ') || (c.where.others[0]?.fullName ?? '')}`;
  return ctx.realmInSubject ? `${subject} [${ctx.realm.name}]` : subject;
}

/** Why this mail came, in the family's words. */
function reason(c: MissedConversation): string {
  const channel = c.where.kind === 'channel' ? `#${c.where.channel.name}` : '';
  if (c.where.kind === 'direct') return 'You are receiving this because you received direct messages while away.';
  if (c.triggers.has('mentioned')) return 'You are receiving this because you were personally mentioned.';
  if (c.triggers.has('topic_wildcard_mentioned')) return 'You are receiving this because all topic participants were mentioned.';
  if (c.triggers.has('stream_wildcard_mentioned')) return `You are receiving this because everyone was mentioned in ${channel}.`;
  if (c.triggers.has('followed_topic_email_notify')) return 'You are receiving this because you have email notifications enabled for topics you follow.';
  return `You are receiving this because you have email notifications enabled for ${channel}.`;
}

function header(c: MissedConversation): string {
  if (c.where.kind === 'channel') return `#${c.where.channel.name} > ${topicLabel(c.where.topic)}`;
  return `You and ${c.where.others.map((o) => o.fullName).join(', ')}`;
}

/** Links and images of the rendered message work from a mail program: made absolute. */
function mailHtml(html: string, realmUrl: string): string {
  return (
    html
      // Inline previews need the reader's session to load; the link itself stays in the text.
      .replace(/<div class="message_inline_image">[\s\S]*?<\/div>/g, '')
      .replace(/\b(href|src)="\/(?!\/)/g, `$1="${realmUrl}/`)
      .replace(/\b(href|src)="#narrow\//g, `$1="${realmUrl}/#narrow/`)
  );
}

/** The text part quotes each message, with upload links made absolute. */
function mailText(content: string, realmUrl: string): string {
  const text = content.replace(/(^|[\s(])\/user_uploads\//g, `$1${realmUrl}/user_uploads/`);
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** Consecutive messages of one sender share one name line, as the family's mails show them. */
function bySender(messages: MailedMessage[]): Array<{ sender: string; messages: MailedMessage[] }> {
  const blocks: Array<{ sender: string; messages: MailedMessage[] }> = [];
  for (const m of messages) {
    const last = blocks[blocks.length - 1];
    if (last && last.sender === m.senderName) last.messages.push(m);
    else blocks.push({ sender: m.senderName, messages: [m] });
  }
  return blocks;
}

function hiddenNote(by: 'user' | 'realm'): string {
  return by === 'user'
    ? 'Message content is not included, as your notification settings ask.'
    : 'Message content is not included: your organization does not allow it in email notifications.';
}

/** One missed-message email: one conversation, its recent messages, and where to answer. */
export function missedMessageEmail(c: MissedConversation, ctx: MissedMailContext): MailMessage {
  const manageUrl = `${ctx.realm.url}/#settings/notifications`;
  const mentioned = [...c.triggers].some((t) => MENTION_TRIGGERS.has(t));
  const lead = ctx.contentHiddenBy
    ? `You have ${c.missedCount === 1 ? 'a new message' : `${c.missedCount} new messages`} in ${ctx.realm.name}.`
    : mentioned
      ? `${c.senders.join(', ')} mentioned you in ${header(c)}:`
      : header(c);
  const blocks = ctx.contentHiddenBy ? [] : bySender(c.messages);

  const text = [
    lead,
    '',
    ...blocks.flatMap((b) => [`${b.sender}:`, ...b.messages.map((m) => mailText(m.content, ctx.realm.url)), '']),
    ...(ctx.contentHiddenBy ? [hiddenNote(ctx.contentHiddenBy), ''] : []),
    '--',
    `Reply to this email directly, or view it in ${ctx.realm.name}:`,
    c.narrowUrl,
    '',
    reason(c),
    `Manage email preferences: ${manageUrl}`,
    `Unsubscribe from missed-message emails: ${ctx.unsubscribeUrl}`,
    '',
  ].join('\n');

  const html = [
    `<p>${escapeHtml(lead)}</p>`,
    ...blocks.map(
      (b) =>
        `<div class="missed-message-sender"><b>${escapeHtml(b.sender)}</b>:` +
        b.messages.map((m) => `<div class="missed-message" data-message-id="${m.id}">${mailHtml(m.html, ctx.realm.url)}</div>`).join('') +
        '</div>',
    ),
    ...(ctx.contentHiddenBy ? [`<p>${escapeHtml(hiddenNote(ctx.contentHiddenBy))}</p>`] : []),
    `<p><a href="${escapeHtml(c.narrowUrl)}">View it in ${escapeHtml(ctx.realm.name)}</a>, or reply to this email directly.</p>`,
    `<p style="color: #666; font-size: 12px;">${escapeHtml(reason(c))} ` +
      `<a href="${escapeHtml(manageUrl)}">Manage email preferences</a> · <a href="${escapeHtml(ctx.unsubscribeUrl)}">Unsubscribe</a></p>`,
  ].join('\n');

  return {
    from: ctx.from,
    to: ctx.to,
    replyTo: ctx.replyTo,
    subject: subjectOf(c, ctx),
    text,
    html,
    headers: unsubscribeHeaders(ctx.unsubscribeUrl),
  };
}
