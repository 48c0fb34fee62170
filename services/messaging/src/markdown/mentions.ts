/** Inline rules for @-mentions of users and groups and #-links to channels and topics. */
import type { CoreRule, InlineRule, StateInline } from './md-types';
import { envOf } from './types';
import { channelUrl, escapeHtml, topicUrl } from './urls';

export const STREAM_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);
export const TOPIC_WILDCARDS = new Set(['topic']);

const USER_MENTION = /^@(_?)\*\*([^*\n]+?)\*\*/;
const GROUP_MENTION = /^@(_?)\*([^*\n]+?)\*/;
const CHANNEL_LINK = /^#\*\*([^*\n]+?)\*\*/;

function pushHtml(state: StateInline, html: string, length: number): void {
  const token = state.push('html_inline', '', 0);
  token.content = html;
  state.pos += length;
}

/** A mention only starts a word: "a@**b**" is an email-like string, not a mention. */
function atWordStart(state: StateInline): boolean {
  return state.pos === 0 || !/[\w]/.test(state.src[state.pos - 1]);
}

export const userMention: InlineRule = (state, silent) => {
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */ || !atWordStart(state)) return false;
  const m = USER_MENTION.exec(state.src.slice(state.pos));
  if (!m) return false;
  const env = envOf(state.env);
  const isSilent = m[1] === '_';
  const text = m[2].trim();
  const lower = text.toLowerCase();
  let html: string | null = null;
  if (STREAM_WILDCARDS.has(lower)) {
    if (!silent && !isSilent) env.streamWildcard = true;
    html = `<span class="user-mention channel-wildcard-mention${isSilent ? ' silent' : ''}" data-user-id="*">${isSilent ? '' : '@'}${escapeHtml(text)}</span>`;
  } else if (TOPIC_WILDCARDS.has(lower)) {
    if (!silent && !isSilent) env.topicWildcard = true;
    html = `<span class="topic-mention${isSilent ? ' silent' : ''}">${isSilent ? '' : '@'}${escapeHtml(text)}</span>`;
  } else {
    const user = resolveUser(env.ctx, text);
    if (user) {
      if (!silent && !isSilent) env.mentionedUserIds.add(user.id);
      html = `<span class="user-mention${isSilent ? ' silent' : ''}" data-user-id="${user.id}">${isSilent ? '' : '@'}${escapeHtml(user.fullName)}</span>`;
    }
  }
  if (html === null) return false;
  if (!silent) pushHtml(state, html, m[0].length);
  else state.pos += m[0].length;
  return true;
};

function resolveUser(ctx: ReturnType<typeof envOf>['ctx'], text: string) {
  const bar = text.lastIndexOf('|');
  if (bar >= 0 && /^\d+$/.test(text.slice(bar + 1))) {
    const user = ctx.usersById.get(Number(text.slice(bar + 1)));
    const name = text.slice(0, bar).trim().toLowerCase();
    if (user && (name === '' || user.fullName.toLowerCase() === name)) return user;
    return undefined;
  }
  const candidates = ctx.usersByName.get(text.toLowerCase()) ?? [];
  // Several users with one name: the syntax must carry the id to say which one.
  return candidates.length === 1 ? candidates[0] : undefined;
}

export const groupMention: InlineRule = (state, silent) => {
  if (state.src.charCodeAt(state.pos) !== 0x40 || !atWordStart(state)) return false;
  const rest = state.src.slice(state.pos);
  if (USER_MENTION.test(rest)) return false;
  const m = GROUP_MENTION.exec(rest);
  if (!m) return false;
  const env = envOf(state.env);
  const group = env.ctx.groupsByName.get(m[2].trim().toLowerCase());
  if (!group) return false;
  const isSilent = m[1] === '_';
  if (!silent) {
    if (!isSilent) env.mentionedGroupIds.add(group.id);
    pushHtml(state, `<span class="user-group-mention${isSilent ? ' silent' : ''}" data-user-group-id="${group.id}">${isSilent ? '' : '@'}${escapeHtml(group.name)}</span>`, m[0].length);
  } else state.pos += m[0].length;
  return true;
};

export const channelLink: InlineRule = (state, silent) => {
  if (state.src.charCodeAt(state.pos) !== 0x23 /* # */) return false;
  const m = CHANNEL_LINK.exec(state.src.slice(state.pos));
  if (!m) return false;
  const env = envOf(state.env);
  const [namePart, ...topicParts] = m[1].split('>');
  const stream = env.ctx.streamsByName.get(namePart.trim().toLowerCase());
  if (!stream) return false;
  if (!silent) {
    if (topicParts.length) {
      const topic = topicParts.join('>');
      pushHtml(
        state,
        `<a class="stream-topic" data-stream-id="${stream.id}" href="${escapeHtml(topicUrl(stream.id, stream.name, topic))}">#${escapeHtml(stream.name)} &gt; ${escapeHtml(topic)}</a>`,
        m[0].length,
      );
    } else {
      pushHtml(state, `<a class="stream" data-stream-id="${stream.id}" href="${escapeHtml(channelUrl(stream.id, stream.name))}">#${escapeHtml(stream.name)}</a>`, m[0].length);
    }
  } else state.pos += m[0].length;
  return true;
};

// The family's mention patterns, as its blockquote processor rewrites them.
const QUOTED_USER_MENTION = /(?<![^\s'"({[/<])@_?\*\*([^*]+)\*\*/g;
const QUOTED_GROUP_MENTION = /(?<![^\s'"({[/<])@_?\*([^*]+)\*/g;

/**
 * Mentions inside a quote notify nobody: quoting a message that mentioned someone must not
 * mention them again. As in the family, each mention in a `>` quote or a quote fence is made
 * silent before the inline rules read it (so it still renders, without the @).
 */
export const silenceQuotedMentions: CoreRule = (state) => {
  let depth = envOf(state.env).quoteDepth;
  for (const token of state.tokens) {
    if (token.type === 'blockquote_open') depth++;
    else if (token.type === 'blockquote_close') depth--;
    else if (token.type === 'inline' && depth > 0 && token.content.includes('@')) {
      token.content = token.content.replace(QUOTED_USER_MENTION, '@_**$1**').replace(QUOTED_GROUP_MENTION, '@_*$1*');
    }
  }
};
