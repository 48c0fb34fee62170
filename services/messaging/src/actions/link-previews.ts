/**
 * Link previews (the family's embed_links worker): a message whose realm previews links is
 * sent at once without them; the link preview job (workers/link-previews.ts) then reads each
 * linked page, within the outside-request guards (lib/outbound.ts), keeps what it found in
 * Redis for URL_PREVIEW_CACHE_SECONDS, renders the message again with it and sends the new HTML
 * as an `update_message` with `rendering_only`, as the family does.
 */
import { Parser } from 'htmlparser2';
import type { createRedis, RedisKeys } from '@chat/bus';
import type { Services } from '../context';
import { guardedGet, mediaType, OutboundError } from '../lib/outbound';
import { loadRenderContext, renderMarkdown } from '../markdown';
import type { UrlEmbedData } from '../markdown/embeds';
import { outboundPolicy } from './external-content';
import { recordRenderingOnlyUpdate } from './thumbnail-renders';

/** Where previews are kept. */
export interface PreviewCache {
  redis: ReturnType<typeof createRedis>;
  keys: RedisKeys;
}

export interface LinkPreviewJob {
  messageId: number;
  realmId: number;
  realmUrl: string;
}

interface PageFacts {
  og: Record<string, string>;
  title: string | null;
  description: string | null;
  firstImage: string | null;
  oembed: string | null;
}

/** Open Graph, the page's own title and description, its first image and its oEmbed link. */
function readPage(html: string): PageFacts {
  const facts: PageFacts = { og: {}, title: null, description: null, firstImage: null, oembed: null };
  let inTitle = false;
  let title = '';
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'meta') {
          const key = (attrs.property ?? attrs.name ?? '').toLowerCase();
          const content = attrs.content;
          if (content === undefined) return;
          if (key.startsWith('og:') && !(key in facts.og)) facts.og[key] = content;
          else if (key === 'description' && facts.description === null) facts.description = content;
        } else if (name === 'title' && facts.title === null) {
          inTitle = true;
        } else if (name === 'link' && (attrs.rel ?? '').toLowerCase().split(/\s+/).includes('alternate') && attrs.type === 'application/json+oembed' && attrs.href) {
          facts.oembed ??= attrs.href;
        } else if (name === 'img' && attrs.src && facts.firstImage === null) {
          facts.firstImage = attrs.src;
        }
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          facts.title = title.trim() || null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return facts;
}

const httpUrl = (href: string | null | undefined, base: string): string | null => {
  if (!href) return null;
  try {
    const u = new URL(href, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
};
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * What a page shows as its preview, or null for none: its oEmbed photo or video when it names
 * one, else its Open Graph data, completed by its own title, description and first image.
 */
export async function readPagePreview(config: Services['config'], url: string): Promise<UrlEmbedData | null> {
  const policy = outboundPolicy(config, config.URL_PREVIEW_MAX_BYTES);
  const page = await guardedGet(url, policy, 'text/html,application/xhtml+xml');
  if (!['text/html', 'application/xhtml+xml'].includes(mediaType(page.contentType))) return null;
  const facts = readPage(page.body.toString('utf8'));
  const data: UrlEmbedData = {
    type: 'link',
    title: text(facts.og['og:title']) ?? facts.title,
    description: text(facts.og['og:description']) ?? text(facts.description),
    image: httpUrl(facts.og['og:image'], page.url) ?? httpUrl(facts.firstImage, page.url),
    html: null,
  };
  const oembedUrl = httpUrl(facts.oembed, page.url);
  if (oembedUrl) {
    const oembed = await readOEmbed(config, oembedUrl);
    if (oembed?.type === 'photo' && httpUrl(text(oembed.url), oembedUrl)) {
      return { type: 'photo', title: text(oembed.title), description: null, image: httpUrl(text(oembed.url), oembedUrl), html: null };
    }
    if (oembed?.type === 'video' && httpUrl(text(oembed.thumbnail_url), oembedUrl)) {
      return {
        type: 'video',
        title: text(oembed.title),
        description: text(oembed.description),
        image: httpUrl(text(oembed.thumbnail_url), oembedUrl),
        html: text(oembed.html),
      };
    }
    data.title ??= text(oembed?.title);
  }
  return data;
}

async function readOEmbed(config: Services['config'], url: string): Promise<Record<string, unknown> | null> {
  try {
    const answer = await guardedGet(url, outboundPolicy(config, config.URL_PREVIEW_MAX_BYTES), 'application/json');
    const parsed: unknown = JSON.parse(answer.body.toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A page's preview from the cache, else read and cached (a page that failed is cached as none). */
export async function pagePreview(services: Services, cache: PreviewCache, url: string): Promise<UrlEmbedData | null> {
  const key = cache.keys.urlPreview(url);
  const held = await cache.redis.get(key);
  if (held !== null) return JSON.parse(held) as UrlEmbedData | null;
  let data: UrlEmbedData | null = null;
  try {
    data = await readPagePreview(services.config, url);
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    services.log.debug({ url, reason: err.reason }, 'no link preview');
  }
  if (services.config.URL_PREVIEW_CACHE_SECONDS > 0) await cache.redis.set(key, JSON.stringify(data), 'EX', services.config.URL_PREVIEW_CACHE_SECONDS);
  return data;
}

/**
 * The job: the message rendered again with its links' previews. Nothing is written when the
 * HTML comes out the same, or when the message was edited meanwhile (the edit queued its own).
 */
export async function doApplyLinkPreviews(services: Services, cache: PreviewCache, job: LinkPreviewJob): Promise<boolean> {
  const [message] = await services.db.$queryRawUnsafe<Array<{ content: string; senderId: number }>>(
    'SELECT content, sender_id AS "senderId" FROM messages WHERE id = $1 AND realm_id = $2',
    job.messageId,
    job.realmId,
  );
  if (!message) return false;
  const ctx = await loadRenderContext(services.db, job.realmId, job.realmUrl, message.content, message.senderId);
  const wanted = renderMarkdown(message.content, ctx).linksForPreview;
  if (!wanted.length) return false;
  for (const url of wanted) ctx.urlEmbedData.set(url, await pagePreview(services, cache, url));
  const html = renderMarkdown(message.content, ctx).html;
  return services.db.$transaction(async (tx) => {
    // Row lock: an edit of the same message waits, so neither overwrites the other.
    const [m] = await tx.$queryRawUnsafe<Array<{ content: string; rendered: string; streamId: number | null }>>(
      'SELECT content, rendered_content AS rendered, stream_id AS "streamId" FROM messages WHERE id = $1 FOR UPDATE',
      job.messageId,
    );
    if (!m || m.content !== message.content || m.rendered === html) return false;
    await recordRenderingOnlyUpdate(tx, job.realmId, job.messageId, m.streamId, m.content, html);
    return true;
  });
}
