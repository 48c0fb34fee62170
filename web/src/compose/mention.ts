/**
 * The family's Markdown syntax for mentions and channel/topic links, as its composebox
 * typeahead inserts them. Links whose names would break the `#**…**` syntax fall back to a
 * plain Markdown link with the offending characters escaped, as the family's server expects.
 */
import { channelHash } from '../narrow/hash';

/** `@**Full Name|12**`, silently `@_**Full Name|12**`; wildcards carry no id. */
export function userMention(fullName: string, userId: number | undefined, silent = false): string {
  return `@${silent ? '_' : ''}**${fullName}${userId !== undefined ? `|${userId}` : ''}**`;
}

export function groupMention(name: string, silent = false): string {
  return `@${silent ? '_' : ''}*${name}*`;
}

// Not global: a /g regex keeps state between .test() calls.
const BREAKS_LINK = /[`>*&[\]]|\$\$/;
const ESCAPES: Record<string, string> = { '`': '&#96;', '>': '&gt;', '*': '&#42;', '&': '&amp;', $$: '&#36;&#36;', '[': '&#91;', ']': '&#93;' };

export function breaksLinkSyntax(text: string): boolean {
  return BREAKS_LINK.test(text);
}

function escapeLinkText(text: string): string {
  return text.replace(/[`>*&[\]]|\$\$/g, (c) => ESCAPES[c] ?? c);
}

export function channelLink(channel: { stream_id: number; name: string }): string {
  if (!breaksLinkSyntax(channel.name)) return `#**${channel.name}**`;
  return `[#${escapeLinkText(channel.name)}](${channelHash(channel.stream_id, channel.name)})`;
}

export function topicLink(channel: { stream_id: number; name: string }, topic: string): string {
  if (!breaksLinkSyntax(channel.name) && !breaksLinkSyntax(topic)) return `#**${channel.name}>${topic}**`;
  return `[#${escapeLinkText(channel.name)} > ${escapeLinkText(topic)}](${channelHash(channel.stream_id, channel.name, topic)})`;
}

/** `[name](url)`: the family drops square brackets from the file name. */
export function uploadLink(name: string, url: string): string {
  return `[${name.replace(/[[\]]/g, '')}](${url})`;
}
