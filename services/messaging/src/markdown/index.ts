/**
 * Message Markdown: markdown-it extended for this API family's dialect. Rendering is split in
 * two: `loadRenderContext` looks up, in one pass over the source, everything the dialect can
 * refer to (users, groups, channels, custom emoji, linkifiers), then `renderMarkdown` is a pure
 * function of source + context. That keeps database access out of the parser and lets an edit
 * re-render with the same rules as a send.
 */
import MarkdownIt from 'markdown-it';
import type { RenderContext, RenderEnv, RenderResult } from './types';
import { installDialect } from './dialect';
import type { Md } from './md-types';

export type { RenderContext, RenderResult } from './types';
export { loadRenderContext, emptyRenderContext } from './context';

/**
 * The renderer's version, stored with each message (messages.rendered_content_version, whose
 * column default is this number). Raised, with a migration moving that default, when rendering
 * changes so much that stored HTML should be rendered again (`manage rerender-messages`):
 * 1 is the family's shapes for code (Pygments classes) and math (KaTeX 0.16 with MathML).
 */
export const RENDERED_CONTENT_VERSION = 1;

function createParser(): Md {
  const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  // Setext underlines and reference-style definitions are not part of the dialect.
  md.disable(['lheading', 'reference']);
  installDialect(md);
  return md;
}

const parser = createParser();

export function renderMarkdown(source: string, ctx: RenderContext): RenderResult {
  const env: RenderEnv = {
    ctx,
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    streamWildcard: false,
    topicWildcard: false,
    hasLink: false,
    hasImage: false,
    hasAttachment: false,
    quoteDepth: 0,
    previewedUrls: new Set(),
    linksForPreview: new Set(),
  };
  const isMeMessage = /^\/me(\s|$)/.test(source) && !source.includes('\n');
  let html = parser.render(isMeMessage ? source.slice(3).trimStart() || ' ' : source, env as unknown as Record<string, unknown>).trimEnd();
  if (isMeMessage) html = html.replace(/^<p>/, '<p>/me ');
  return {
    html,
    isMeMessage,
    mentionedUserIds: env.mentionedUserIds,
    mentionedGroupIds: env.mentionedGroupIds,
    streamWildcard: env.streamWildcard,
    topicWildcard: env.topicWildcard,
    hasLink: env.hasLink,
    hasImage: env.hasImage,
    hasAttachment: env.hasAttachment,
    linksForPreview: [...env.linksForPreview],
  };
}
