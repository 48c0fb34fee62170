/**
 * The typeahead of the message text, as the family's composebox typeahead behaves: the token
 * before the cursor decides what is being completed (`@` people, groups and wildcards, `@_`
 * silent mentions, `#` channels then `>` topics, `:` emoji, `/` commands at the start), and
 * choosing an item rewrites the text before the cursor. Pure: the UI passes the text and lists.
 */
import type { EmojiEntry } from '../emoji/data';
import { channelLink, groupMention, topicLink, userMention, breaksLinkSyntax } from './mention';

export interface PersonLike { user_id: number; full_name: string; email: string; delivery_email?: string | null; is_bot: boolean }
export interface GroupLike { id: number; name: string; description: string; members: number[]; is_system_group: boolean; deactivated?: boolean }
export interface ChannelLike { stream_id: number; name: string; description?: string; invite_only?: boolean }
export interface SlashCommand { name: string; info: string; placeholder: string }

export interface TypeaheadContext {
  people: PersonLike[];
  groups: GroupLike[];
  channels: ChannelLike[];
  emoji: EmojiEntry[];
  /** Known topics of a channel, most recent first. */
  topics: (streamId: number) => string[];
  slash: SlashCommand[];
  /** Direct messages offer fewer wildcards. */
  isDirect: boolean;
  /** The compose box's channel, for the `#>` shortcut. */
  currentStreamId?: number;
}

export type Suggestion =
  | { kind: 'user'; person: PersonLike; silent: boolean }
  | { kind: 'wildcard'; name: string }
  | { kind: 'group'; group: GroupLike; silent: boolean }
  | { kind: 'channel'; channel: ChannelLike }
  | { kind: 'topic'; channel: ChannelLike; topic: string; channelLink?: boolean; isNew?: boolean; prefix: '#**' | '#>' }
  | { kind: 'emoji'; emoji: EmojiEntry; name: string }
  | { kind: 'slash'; command: SlashCommand };

export type Completing = 'mention' | 'silent_mention' | 'emoji' | 'slash' | 'channel' | 'topic';

export interface Completion {
  kind: Completing;
  query: string;
  /** Where in the text before the cursor the token begins. */
  start: number;
  items: Suggestion[];
}

export const MAX_ITEMS = 8;
/** The longest channel name, the link syntax `#**>**` and some of a topic. */
const LOOKBACK = 60 + 6 + 20;
/** What may follow the cursor for a completion to be offered (else it sits inside a word). */
const TERMINAL = ',.;?!()[]> \u00a0"\'\n\t';

/** The token being typed at the end of `s`: from a trigger character after a space or punctuation. */
export function tokenize(s: string): string {
  const min = Math.max(0, s.length - LOOKBACK);
  for (let i = s.length - 1; i >= min; i--) {
    const c = s[i];
    if (c === '/' && i === 0) return s;
    if (c === '#' || c === '@' || c === ':' || c === '_') {
      if (i === 0) return s;
      if (/[\s"'(/<[{]/.test(s[i - 1]!)) return s.slice(i);
    }
  }
  return '';
}

function fold(text: string, keepMarks: boolean): string {
  const lower = text.toLowerCase();
  return keepMarks ? lower : lower.normalize('NFD').replace(/\p{M}/gu, '');
}

/**
 * How well `text` matches `query`: 0 exactly, 1 at its start, 2 at the start of a later word
 * (`sep` separates words), -1 not at all. Accents in the text are ignored unless the query has some.
 */
export function matchRank(query: string, text: string, sep = ' '): number {
  const keepMarks = query.normalize('NFD') !== query.normalize('NFD').replace(/\p{M}/gu, '');
  const q = fold(query.trim(), keepMarks);
  const s = fold(text, keepMarks);
  if (!q) return 1;
  if (s === q) return 0;
  if (s.startsWith(q)) return 1;
  if (s.includes(sep + q)) return 2;
  return -1;
}

export function personRank(query: string, person: PersonLike): number {
  const byName = matchRank(query, person.full_name);
  const email = (person.delivery_email || person.email).toLowerCase();
  const byEmail = query && email.startsWith(query.trim().toLowerCase()) ? 1 : -1;
  if (byName < 0) return byEmail;
  return byEmail < 0 ? byName : Math.min(byName, byEmail);
}

function ranked<T>(items: T[], rank: (item: T) => number, tie: (a: T, b: T) => number, limit: number): T[] {
  return items
    .map((item) => ({ item, r: rank(item) }))
    .filter((x) => x.r >= 0)
    .sort((a, b) => a.r - b.r || tie(a.item, b.item))
    .slice(0, limit)
    .map((x) => x.item);
}

/** People, then groups, for a mention or the direct-message recipient picker. */
export function peopleSuggestions(query: string, ctx: Pick<TypeaheadContext, 'people' | 'groups'>, opts: { silent: boolean; wildcards: string[]; exclude?: Set<number>; limit?: number }): Suggestion[] {
  const limit = opts.limit ?? MAX_ITEMS;
  const wild: Suggestion[] = opts.wildcards.filter((w) => matchRank(query, w) >= 0 && matchRank(query, w) <= 1).map((name) => ({ kind: 'wildcard', name }));
  type Entry = { s: Suggestion; name: string; bot: boolean; r: number };
  const entries: Entry[] = [];
  for (const p of ctx.people) {
    if (opts.exclude?.has(p.user_id)) continue;
    const r = personRank(query, p);
    if (r >= 0) entries.push({ s: { kind: 'user', person: p, silent: opts.silent }, name: p.full_name, bot: p.is_bot, r });
  }
  for (const g of ctx.groups) {
    if (g.is_system_group || g.deactivated) continue;
    const r = matchRank(query, g.name);
    if (r >= 0) entries.push({ s: { kind: 'group', group: g, silent: opts.silent }, name: g.name, bot: false, r });
  }
  entries.sort((a, b) => a.r - b.r || Number(a.bot) - Number(b.bot) || a.name.localeCompare(b.name));
  return [...wild, ...entries.map((e) => e.s)].slice(0, limit);
}

export function emojiSuggestions(query: string, emoji: EmojiEntry[], limit = MAX_ITEMS): Suggestion[] {
  const q = query.replace(/ /g, '_');
  const found: Array<{ s: Suggestion; r: number; custom: boolean }> = [];
  for (const e of emoji) {
    let best = -1;
    let bestName = e.name;
    for (const name of [e.name, ...e.aliases]) {
      const r = matchRank(q, name, '_');
      if (r >= 0 && (best < 0 || r < best)) {
        best = r;
        bestName = name;
      }
    }
    if (best >= 0) found.push({ s: { kind: 'emoji', emoji: e, name: bestName }, r: best, custom: e.type !== 'unicode_emoji' });
  }
  const name = (s: Suggestion) => (s.kind === 'emoji' ? s.name : '');
  found.sort((a, b) => a.r - b.r || Number(b.custom) - Number(a.custom) || name(a.s).length - name(b.s).length || name(a.s).localeCompare(name(b.s)));
  return found.slice(0, limit).map((f) => f.s);
}

export function channelSuggestions(query: string, channels: ChannelLike[], limit = MAX_ITEMS): Suggestion[] {
  return ranked(channels, (c) => matchRank(query, c.name), (a, b) => a.name.localeCompare(b.name), limit).map((channel) => ({ kind: 'channel', channel }));
}

export function topicSuggestions(query: string, channel: ChannelLike, topics: string[], prefix: '#**' | '#>', limit = MAX_ITEMS): Suggestion[] {
  const items: Suggestion[] = [];
  if (!query) items.push({ kind: 'topic', channel, topic: '', channelLink: true, prefix });
  const isNew = query !== '' && !topics.some((t) => t.toLowerCase() === query.toLowerCase());
  if (isNew) items.push({ kind: 'topic', channel, topic: query, isNew: true, prefix });
  const matches = ranked(topics, (t) => matchRank(query, t), () => 0, limit);
  for (const topic of matches) items.push({ kind: 'topic', channel, topic, prefix });
  return items.slice(0, limit);
}

/** The strip of a mention token (`**`, `*`): undefined when it is a finished mention or starts with a space. */
function mentionQuery(token: string): string | undefined {
  let q = token;
  if (q.startsWith('**')) q = q.slice(2);
  else if (q.startsWith('*')) q = q.slice(1);
  if (q.includes('*') || q.startsWith(' ')) return undefined;
  return q;
}

/** What to offer for the text around the cursor, or null when nothing is being completed. */
export function completionsFor(before: string, after: string, ctx: TypeaheadContext, limit = MAX_ITEMS): Completion | null {
  if (after !== '' && !TERMINAL.includes(after[0]!)) return null;
  const result = (kind: Completing, query: string, start: number, items: Suggestion[]): Completion | null => (items.length ? { kind, query, start, items } : null);

  // `#**channel>topic` and `#>topic` are checked first: their token has no trigger after a space.
  const topicMatch = /#\*\*([^*>]+)>([^*\n]*)$/.exec(before) ?? /#(>)([^*\n]*)$/.exec(before);
  if (topicMatch) {
    const query = topicMatch[2] ?? '';
    if (query.startsWith(' ')) return null;
    const shortcut = topicMatch[1] === '>';
    const channel = shortcut ? ctx.channels.find((c) => c.stream_id === ctx.currentStreamId) : ctx.channels.find((c) => c.name === topicMatch[1]) ?? ctx.channels.find((c) => c.name.toLowerCase() === topicMatch[1]!.toLowerCase());
    if (channel) return result('topic', query, topicMatch.index, topicSuggestions(query, channel, ctx.topics(channel.stream_id), shortcut ? '#>' : '#**', limit));
  }

  const token = tokenize(before);
  if (!token) return null;
  const start = before.length - token.length;

  if (token.startsWith(':')) {
    if (/^:-.?$/.test(token) || /^:[^+a-z]?$/.test(token) || token[1] === ' ') return null;
    return result('emoji', token.slice(1), start, emojiSuggestions(token.slice(1), ctx.emoji, limit));
  }
  if (token.startsWith('@')) {
    const silent = token.startsWith('@_');
    const query = mentionQuery(token.slice(silent ? 2 : 1));
    if (query === undefined) return null;
    const wildcards = silent ? [] : ctx.isDirect ? ['all', 'everyone'] : ['all', 'everyone', 'channel', 'topic'];
    return result(silent ? 'silent_mention' : 'mention', query, start, peopleSuggestions(query, ctx, { silent, wildcards, limit }));
  }
  if (token.startsWith('/') && start === 0) {
    const query = token.slice(1);
    if (/\s/.test(query)) return null;
    return result('slash', query, start, ranked(ctx.slash, (c) => matchRank(query, c.name), () => 0, limit).map((command) => ({ kind: 'slash', command })));
  }
  if (token.startsWith('#') && token.length > 1) {
    let query = token.slice(1);
    if (query.startsWith('**')) query = query.slice(2);
    if (query.startsWith(' ')) return null;
    return result('channel', query, start, channelSuggestions(query, ctx.channels, limit));
  }
  return null;
}

export interface Applied {
  value: string;
  caret: number;
  /** A placeholder to select after inserting (e.g. a poll's question). */
  select?: [number, number];
}

/** The text after choosing `item` from `completion`, with where the cursor goes. */
export function applySuggestion(before: string, after: string, completion: Completion, item: Suggestion): Applied {
  let head = before.slice(0, completion.start);
  let select: [number, number] | undefined;
  switch (item.kind) {
    case 'emoji': {
      // The family keeps emoji apart from the word before them.
      const prev = head.slice(-1);
      head += `${prev === '' || prev === ' ' || prev === '\n' ? '' : ' '}:${item.name}: `;
      break;
    }
    case 'user':
      head += userMention(item.person.full_name, item.person.user_id, item.silent) + ' ';
      break;
    case 'wildcard':
      head += userMention(item.name, undefined) + ' ';
      break;
    case 'group':
      head += groupMention(item.group.name, item.silent) + ' ';
      break;
    case 'slash':
      head += `/${item.command.name} `;
      if (item.command.placeholder) {
        select = [head.length, head.length + item.command.placeholder.length];
        head += item.command.placeholder;
      }
      break;
    case 'channel':
      // Leaves `#**name>` so the topic list follows at once; a name the syntax cannot hold
      // becomes a finished Markdown link instead.
      head += breaksLinkSyntax(item.channel.name) ? channelLink(item.channel) + ' ' : `#**${item.channel.name}>`;
      break;
    case 'topic':
      head += (item.channelLink ? channelLink(item.channel) : topicLink(item.channel, item.topic)) + ' ';
      break;
  }
  return { value: head + after, caret: select ? select[1] : head.length, select };
}

/** Typing `>` right after a finished `#**channel**` reopens it for a topic, as in the family. */
export function autoTopicJump(before: string): string | null {
  const m = /#\*\*([^*>]+)\*\*\s?>$/.exec(before);
  return m ? `${before.slice(0, m.index)}#**${m[1]}>` : null;
}

/** Escape while choosing a topic keeps the channel link and the typed words as plain text. */
export function escapeTopicCompletion(before: string): string | null {
  const m = /#\*\*([^*>]+)>([^*\n]*)$/.exec(before);
  return m ? `${before.slice(0, m.index)}#**${m[1]}** ${m[2]}` : null;
}
