/** :name: emoji, custom emoji, and emoji typed as Unicode characters. */
import type { InlineRule } from './md-types';
import { envOf } from './types';
import { canonicalEmojiName, emojiCodeForName, splitUnicodeEmoji } from '@chat/emoji';
import { escapeHtml } from './urls';

// Word characters in any script, as the family's `\w` matches them: some of its emoji names
// are not ASCII (`piñata`, `ココ`).
const EMOJI_SYNTAX = /^:([\p{L}\p{N}_+-]+):/u;
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** The family's emoji span: title and aria-label are the name with spaces for underscores. */
export function unicodeEmojiHtml(name: string, code: string): string {
  return `<span aria-label="${escapeHtml(name.replace(/_/g, ' '))}" class="emoji emoji-${code}" role="img" title="${escapeHtml(name.replace(/_/g, ' '))}">:${escapeHtml(name)}:</span>`;
}

export const emojiName: InlineRule = (state, silent) => {
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  if (state.pos > 0 && WORD_CHAR.test(state.src[state.pos - 1])) return false;
  const m = EMOJI_SYNTAX.exec(state.src.slice(state.pos));
  if (!m) return false;
  const after = state.src[state.pos + m[0].length];
  if (after !== undefined && WORD_CHAR.test(after)) return false;
  const name = m[1];
  const env = envOf(state.env);
  const custom = env.ctx.realmEmoji.get(name);
  let html: string | null = null;
  if (custom) html = `<img alt=":${escapeHtml(name)}:" class="emoji" src="${escapeHtml(custom.url)}" title="${escapeHtml(name.replace(/_/g, ' '))}">`;
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

/** Text with emoji characters replaced by their spans (input is raw text, output is HTML). */
export function textWithEmoji(text: string): string | null {
  const parts = splitUnicodeEmoji(text);
  if (parts.every((p) => typeof p === 'string')) return null;
  return parts
    .map((p) => (typeof p === 'string' ? escapeHtml(p) : unicodeEmojiHtml(canonicalEmojiName(p.code) ?? p.code, p.code)))
    .join('');
}
