/** Installs the dialect's extensions on a markdown-it parser. */
import type { CoreRule, InlineRule, Md, Token } from './md-types';
import { envOf, type Linkifier, type RenderEnv } from './types';
import { channelLink, groupMention, silenceQuotedMentions, userMention } from './mentions';
import { emojiName, textWithEmoji } from './emoji';
import { inlineImages } from './inline-images';
import { escapeHtml, escapeText } from './urls';
import { inlineMath } from './math';
import { installFences } from './code';
import { codeSpan, strikethrough, strongOutsideEmphasis, underscores } from './inline';

const IMAGE_LINK = /\.(png|jpe?g|gif|webp|bmp|tiff?)(\?.*)?$/i;

const TIME = /^<time:([^>]+)>/;
const timeTag: InlineRule = (state, silent) => {
  if (!state.src.startsWith('<time:', state.pos)) return false;
  const m = TIME.exec(state.src.slice(state.pos));
  if (!m) return false;
  const when = /^\d+$/.test(m[1]) ? new Date(Number(m[1]) * 1000) : new Date(m[1]);
  if (!silent) {
    const token = state.push('html_inline', '', 0);
    token.content = Number.isNaN(when.getTime())
      ? `<span class="timestamp-error">Invalid time format: ${escapeHtml(m[1])}</span>`
      : `<time datetime="${when.toISOString().replace('.000Z', 'Z')}">${escapeHtml(m[1])}</time>`;
  }
  state.pos += m[0].length;
  return true;
};

/** Python-style named groups of a linkifier pattern in JavaScript syntax. */
export function compileLinkifier(pattern: string): RegExp | null {
  const js = pattern.replace(/\(\?P<(\w+)>/g, '(?<$1>').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
  try {
    // Matches only at word edges, as linkifiers do elsewhere in this API family.
    return new RegExp(`(?<![^\\s'"(,:<])(?:${js})(?!\\w)`, 'gu');
  } catch {
    return null;
  }
}

/** RFC 6570 level 1-2 expansion: {var} percent-encoded, {+var} and {#var} reserved-safe. */
export function expandTemplate(template: string, vars: Record<string, string | undefined>): string {
  return template.replace(/\{([+#]?)([\w.,]+)\}/g, (_, op: string, name: string) => {
    const value = vars[name] ?? '';
    const encoded = op ? encodeURI(value) : encodeURIComponent(value);
    return op === '#' ? `#${encoded}` : encoded;
  });
}

function linkify(text: string, linkifiers: Array<{ re: RegExp; l: Linkifier }>): Array<string | { text: string; href: string }> {
  let parts: Array<string | { text: string; href: string }> = [text];
  for (const { re, l } of linkifiers) {
    const next: typeof parts = [];
    for (const part of parts) {
      if (typeof part !== 'string') {
        next.push(part);
        continue;
      }
      let last = 0;
      for (const m of part.matchAll(re)) {
        if (m.index! > last) next.push(part.slice(last, m.index));
        next.push({ text: m[0], href: expandTemplate(l.urlTemplate, { ...(m.groups ?? {}) }) });
        last = m.index! + m[0].length;
      }
      if (last < part.length) next.push(part.slice(last));
    }
    parts = next;
  }
  return parts;
}

/** After inline parsing: linkifiers and Unicode emoji in text outside links and code. */
const textRewrites: CoreRule = (state) => {
  const env = envOf(state.env);
  const linkifiers = env.ctx.linkifiers
    .map((l) => ({ re: compileLinkifier(l.pattern), l }))
    .filter((x): x is { re: RegExp; l: Linkifier } => x.re !== null);
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const out: Token[] = [];
    let inLink = 0;
    for (const t of block.children) {
      if (t.type === 'link_open') inLink++;
      if (t.type === 'link_close') inLink--;
      if (t.type !== 'text' || inLink > 0) {
        out.push(t);
        continue;
      }
      for (const part of linkify(t.content, linkifiers)) {
        if (typeof part !== 'string') {
          env.hasLink = true;
          const open = new state.Token('link_open', 'a', 1);
          open.attrs = [['href', part.href], ['title', part.href]];
          const text = new state.Token('text', '', 0);
          text.content = part.text;
          out.push(open, text, new state.Token('link_close', 'a', -1));
          continue;
        }
        const html = textWithEmoji(part, env.ctx.translateEmoticons);
        const token = new state.Token(html === null ? 'text' : 'html_inline', '', 0);
        token.content = html ?? part;
        out.push(token);
      }
    }
    block.children = out;
  }
};

function noteLink(env: RenderEnv, href: string): void {
  env.hasLink = true;
  if (/\/user_uploads\//.test(href)) env.hasAttachment = true;
  if (IMAGE_LINK.test(href)) env.hasImage = true;
}

export function installDialect(md: Md): void {
  md.inline.ruler.before('emphasis', 'user_mention', userMention);
  md.inline.ruler.before('emphasis', 'group_mention', groupMention);
  md.inline.ruler.before('emphasis', 'channel_link', channelLink);
  md.inline.ruler.before('emphasis', 'emoji', emojiName);
  md.inline.ruler.before('escape', 'inline_math', inlineMath);
  md.inline.ruler.before('emphasis', 'underscores', underscores);
  md.inline.ruler.at('strikethrough', strikethrough);
  md.inline.ruler.at('backticks', codeSpan);
  md.core.ruler.push('strong_outside_emphasis', strongOutsideEmphasis);
  md.core.ruler.before('inline', 'quoted_mentions', silenceQuotedMentions);
  md.inline.ruler.before('autolink', 'time', timeTag);
  md.core.ruler.push('text_rewrites', textRewrites);
  md.core.ruler.push('inline_images', inlineImages);

  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    noteLink(envOf(env), String(tokens[idx].attrGet('href') ?? ''));
    return defaultLinkOpen(tokens, idx, options, env, self);
  };

  installFences(md);
  md.renderer.rules.text = (tokens, idx) => escapeText(tokens[idx]!.content);
  md.renderer.rules.s_open = () => '<del>';
  md.renderer.rules.s_close = () => '</del>';
}
