/** :name: emoji, custom emoji, and emoji typed as Unicode characters. */
import type { InlineRule } from './md-types';
import { envOf } from './types';
import { canonicalEmojiName, emojiCodeForName, isExtraEmoji, splitUnicodeEmoji } from '@chat/emoji';
import { escapeHtml, escapeText } from './urls';
import { splitEmoticons } from './emoticons';

// Word characters in any script, as the family's `\w` matches them: some of its emoji names
// are not ASCII (`piñata`, `ココ`).
const EMOJI_SYNTAX = /^:([\p{L}\p{N}_+-]+):/u;

/** The family's emoji span: title and aria-label are the name with spaces for underscores. */
export function unicodeEmojiHtml(name: string, code: string): string {
  return `<span aria-label="${escapeHtml(name.replace(/_/g, ' '))}" class="emoji emoji-${code}" role="img" title="${escapeHtml(name.replace(/_/g, ' '))}">:${escapeHtml(name)}:</span>`;
}

/** Where the family's clients find the image of its own `:zulip:` emoji. */
export const EXTRA_EMOJI_URL = '/static/generated/emoji/images/emoji/unicode/zulip.png';

/** A custom (or the server's own) emoji: an image, as the family writes it. */
function imageEmojiHtml(name: string, url: string): string {
  return `<img alt=":${escapeHtml(name)}:" class="emoji" src="${escapeHtml(url)}" title="${escapeHtml(name.replace(/_/g, ' '))}">`;
}

export const emojiName: InlineRule = (state, silent) => {
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  const m = EMOJI_SYNTAX.exec(state.src.slice(state.pos));
  if (!m) return false;
  const name = m[1];
  const env = envOf(state.env);
  const custom = env.ctx.realmEmoji.get(name);
  let html: string | null = null;
  if (custom) html = imageEmojiHtml(name, custom.url);
  else if (isExtraEmoji(name)) html = imageEmojiHtml(name, EXTRA_EMOJI_URL);
  else {
    const code = emojiCodeForName(name);
    if (code) html = unicodeEmojiHtml(name, code);
  }
  if (html === null) return false;
  if (!silent) {
    const token = state.push('html_inline', '', 0);
    token.content = html;
  }
  state.pos += m[0].length;
  return true;
};

/**
 * Text with emoji characters (and, with `emoticons`, emoticons) replaced by their spans; input
 * is raw text, output HTML, or null when there is nothing to replace.
 */
export function textWithEmoji(text: string, emoticons = false): string | null {
  const pieces = emoticons ? splitEmoticons(text) : [text];
  let replaced = pieces.some((p) => typeof p !== 'string');
  const html = pieces.map((piece) => {
    if (typeof piece !== 'string') return unicodeEmojiHtml(piece.name, piece.code);
    const parts = splitUnicodeEmoji(piece);
    if (parts.every((p) => typeof p === 'string')) return escapeText(piece);
    replaced = true;
    return parts.map((p) => (typeof p === 'string' ? escapeText(p) : unicodeEmojiHtml(canonicalEmojiName(p.code) ?? p.code, p.code))).join('');
  });
  return replaced ? html.join('') : null;
}
