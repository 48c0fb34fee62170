/**
 * Previews of links, placed where the family's InlineInterestingLinkProcessor places them:
 * uploaded images (upload-previews.ts), external images through the image proxy and YouTube
 * videos go after the paragraph holding the link (after the previews of that paragraph's
 * earlier links), at the end of a tight list's item, or at the end of the message for a link
 * inside a heading, a table or emphasis; a paragraph that is nothing but the bare link to an
 * image gives way to its preview. Page previews (embeds.ts), once the link preview job has read
 * the page, go at the end of the message, and a YouTube or Vimeo link then shows the video's
 * title. Links in quotes get none, each URL one, and a message with more than 24 distinct
 * links none at all. Images need the realm's `inline_image_preview`, page previews its
 * `inline_url_embed_preview`.
 */
import type { CoreRule, StateCore, Token } from './md-types';
import { envOf } from './types';
import { embedHtml, imagePreviewHtml, isExternalLink, isImageLink, videoLinkText, youtubeId, youtubePreviewHtml } from './embeds';
import { imageSrc } from './image-proxy';
import { inlineImageHtml, uploadPathOfHref } from './upload-previews';

/** The family's INLINE_PREVIEW_LIMIT_PER_MESSAGE. */
const PREVIEW_LIMIT = 24;

interface FoundLink {
  href: string;
  inline: number;
  child: number;
  quoted: boolean;
}

/** The link's text as the family reads it (an element's leading text), or null when it has none. */
function linkText(children: Token[], open: number): string | null {
  let text: string | null = null;
  for (let i = open + 1; i < children.length && children[i]!.type === 'text'; i++) text = (text ?? '') + children[i]!.content;
  return text;
}

/** Whether a paragraph's whole content is this one link, with its URL as its text or none. */
function bareLink(children: Token[], href: string): boolean {
  if (children.length === 2) return children[0]!.type === 'link_open' && children[1]!.type === 'link_close';
  return children.length === 3 && children[0]!.type === 'link_open' && children[1]!.type === 'text' && children[1]!.content === href && children[2]!.type === 'link_close';
}

function findLinks(state: StateCore, quoted: boolean): FoundLink[] {
  const found: FoundLink[] = [];
  let depth = 0;
  state.tokens.forEach((t, i) => {
    if (t.type === 'blockquote_open') depth++;
    else if (t.type === 'blockquote_close') depth--;
    else if (t.type === 'inline' && t.children) {
      t.children.forEach((c, j) => {
        if (c.type === 'link_open') found.push({ href: String(c.attrGet('href') ?? ''), inline: i, child: j, quoted: quoted || depth > 0 });
      });
    }
  });
  return found;
}

export const inlineImages: CoreRule = (state) => {
  const env = envOf(state.env);
  const { ctx } = env;
  if (!ctx.inlineImagePreview && !ctx.urlEmbedPreview) return;
  const links = findLinks(state, env.quoteDepth > 0);
  if (!links.length || new Set(links.filter((l) => !l.quoted).map((l) => l.href)).size > PREVIEW_LIMIT) return;

  const tokens = state.tokens;
  const after = new Map<number, Token[]>();
  const before = new Map<number, Token[]>();
  const atEnd: Token[] = [];
  const dropped = new Set<number>();
  const block = (html: string) => Object.assign(new state.Token('html_block', '', 0), { content: html });
  const push = (map: Map<number, Token[]>, at: number, t: Token) => map.set(at, [...(map.get(at) ?? []), t]);

  /** A preview after the link's paragraph (the family's get_inlining_information). */
  const placeAfter = (link: FoundLink, html: Token, givesWay: boolean) => {
    const inline = tokens[link.inline]!;
    const children = inline.children!;
    const nested = children.slice(0, link.child).reduce((n, c) => n + c.nesting, 0) > 0;
    const open = tokens[link.inline - 1];
    if (nested || open?.type !== 'paragraph_open') {
      atEnd.push(html);
    } else if (open.hidden) {
      // A tight list's item: the preview ends the item, and a bare link gives way to it.
      let close = link.inline + 2;
      while (close < tokens.length && !(tokens[close]!.type === 'list_item_close' && tokens[close]!.level === open.level - 1)) close++;
      push(before, close, html);
      if (givesWay && bareLink(children, link.href)) inline.children = [];
    } else {
      push(after, link.inline + 1, html);
      if (givesWay && bareLink(children, link.href)) [link.inline - 1, link.inline, link.inline + 1].forEach((i) => dropped.add(i));
    }
  };

  for (const link of links) {
    if (link.quoted || env.previewedUrls.has(link.href)) continue;
    env.previewedUrls.add(link.href);
    const children = tokens[link.inline]!.children!;
    const text = linkText(children, link.child);
    const title = text === null || text === link.href ? null : text;
    const pathId = uploadPathOfHref(link.href);
    if (pathId !== null) {
      const preview = ctx.inlineImagePreview ? ctx.uploadPreviews.get(pathId) : undefined;
      if (!preview) continue;
      env.hasImage = true;
      const escapedTitle = title === null ? null : state.md.utils.escapeHtml(title);
      placeAfter(link, block(inlineImageHtml(state.md.utils.escapeHtml(link.href), escapedTitle, preview)), true);
      continue;
    }
    if (ctx.inlineImagePreview && isImageLink(link.href, ctx.realmUrl)) {
      env.hasImage = true;
      placeAfter(link, block(imagePreviewHtml(link.href, title, imageSrc(link.href, ctx.realmUrl))), true);
      continue;
    }
    const video = ctx.inlineImagePreview ? youtubeId(link.href) : null;
    if (video !== null) {
      env.hasImage = true;
      placeAfter(link, block(youtubePreviewHtml(link.href, video)), false);
    }
    if (!ctx.urlEmbedPreview || !isExternalLink(link.href, ctx.realmUrl)) continue;
    const data = ctx.urlEmbedData.get(link.href);
    if (data === undefined) {
      env.linksForPreview.add(link.href);
      continue;
    }
    if (data === null) continue;
    const retitled = ctx.inlineImagePreview ? videoLinkText(link.href, data) : null;
    if (retitled !== null && text === link.href) children[link.child + 1]!.content = retitled;
    // A YouTube link has its preview already; the page's data only gives it its title.
    if (video !== null) continue;
    const html = embedHtml(link.href, data, ctx.realmUrl);
    if (html === null) continue;
    if (html.includes('message_inline_image')) env.hasImage = true;
    atEnd.push(block(html));
  }
  if (!after.size && !before.size && !atEnd.length) return;
  const out: Token[] = [];
  tokens.forEach((t, i) => {
    out.push(...(before.get(i) ?? []));
    if (!dropped.has(i)) out.push(t);
    out.push(...(after.get(i) ?? []));
  });
  state.tokens = [...out, ...atEnd];
};
