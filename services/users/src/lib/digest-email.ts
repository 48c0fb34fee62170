import type { MailMessage } from '../workers/mail';
import { escapeHtml } from './render';
import { unsubscribeHeaders } from './unsubscribe';

export interface HotConversation {
  channel: string;
  topic: string;
  url: string;
  /** Its first messages (two at most). */
  messages: Array<{ senderName: string; content: string; html: string }>;
  /** Messages by people beyond those shown. */
  moreCount: number;
  participants: string[];
}

export interface DigestContent {
  to: string;
  from: { name: string; address: string };
  realm: { name: string; url: string };
  conversations: HotConversation[];
  newChannels: Array<{ name: string; url: string }>;
  newMessagesCount: number;
  contentHiddenBy: 'user' | 'realm' | null;
  unsubscribeUrl: string;
}

/** "A, B, C, D and 2 others", the family's display_list of at most four names. */
function displayList(names: string[], max: number): string {
  if (names.length <= 1) return names.join('');
  if (names.length <= max) return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  const rest = names.length - max;
  return `${names.slice(0, max).join(', ')} and ${rest} other${rest === 1 ? '' : 's'}`;
}

function more(c: HotConversation): string {
  return c.moreCount > 0 ? `+ ${c.moreCount} more message${c.moreCount === 1 ? '' : 's'} by ${displayList(c.participants, 4)}.` : '';
}

function summary(d: DigestContent): string {
  const n = d.newMessagesCount;
  const s = d.newChannels.length;
  if (n > 0 && s > 0) return `You have ${n} new messages, and there are ${s} new channels in ${d.realm.name}.`;
  if (n > 0) return `You have ${n} new messages in ${d.realm.name}.`;
  return `There are ${s} new channels in ${d.realm.name}.`;
}

function hiddenNote(by: 'user' | 'realm'): string {
  return by === 'realm'
    ? 'This email does not include message content because your organization hides message content in email notifications.'
    : 'This email does not include message content because you have chosen to hide message content in email notifications.';
}

/** The weekly digest: hot conversations and new channels, or only counts when content may not be shown. */
export function digestEmail(d: DigestContent): MailMessage {
  const manage = `${d.realm.url}/#settings/notifications`;
  const textBody = d.contentHiddenBy
    ? [summary(d), '', hiddenNote(d.contentHiddenBy)]
    : [
        ...d.conversations.flatMap((c) => [
          `#${c.channel} > ${c.topic}`,
          ...c.messages.flatMap((m) => [`${m.senderName}:`, ...m.content.split('\n').map((l) => `> ${l}`)]),
          ...(more(c) ? [more(c)] : []),
          c.url,
          '',
        ]),
        ...(d.newChannels.length ? ['** New channels **', `    ${displayList(d.newChannels.map((c) => c.name), 1000)}.`] : []),
      ];
  const text = [
    ...textBody,
    '',
    `Log in to catch up: ${d.realm.url}.`,
    '',
    '--',
    'Manage email preferences:',
    manage,
    '',
    'Unsubscribe from digest emails:',
    d.unsubscribeUrl,
    '',
  ].join('\n');

  const htmlBody = d.contentHiddenBy
    ? `<p>${escapeHtml(summary(d))}</p><p>${escapeHtml(hiddenNote(d.contentHiddenBy))}</p>`
    : d.conversations
        .map(
          (c) =>
            `<div class="hot-conversation"><p><b><a href="${escapeHtml(c.url)}">#${escapeHtml(c.channel)} &gt; ${escapeHtml(c.topic)}</a></b></p>` +
            c.messages.map((m) => `<div><b>${escapeHtml(m.senderName)}</b>: ${m.html}</div>`).join('') +
            (more(c) ? `<p>${escapeHtml(more(c))}</p>` : '') +
            '</div>',
        )
        .join('') +
      (d.newChannels.length
        ? `<p><b>New channels</b></p><p>${d.newChannels.map((c) => `<a href="${escapeHtml(c.url)}">${escapeHtml(c.name)}</a>`).join(', ')}.</p>`
        : '');
  const html =
    htmlBody +
    `<p><a href="${escapeHtml(d.realm.url)}">Log in</a> to catch up.</p>` +
    `<p><a href="${escapeHtml(manage)}">Manage email preferences</a> | <a href="${escapeHtml(d.unsubscribeUrl)}">Unsubscribe from digest emails</a></p>`;
  return { from: d.from, to: d.to, subject: `Digest for ${d.realm.name}`, text, html, headers: unsubscribeHeaders(d.unsubscribeUrl) };
}
