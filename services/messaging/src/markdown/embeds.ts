/**
 * What a message shows for links to external images, videos and pages, in the family's shapes:
 * an image link gets a `message_inline_image` block through the image proxy; a YouTube link a
 * `youtube-video` block with its thumbnail; and, where the realm has `inline_url_embed_preview`
 * on, a page's Open Graph or oEmbed data (read later by the link preview job) a `message_embed`
 * block, or an `embed-video` block for a video (Vimeo). The HTML is built here; where each block
 * goes is inline-images.ts's part.
 */
import { imageSrc, proxiedImageUrl } from './image-proxy';

/** A page's preview as the link preview job found it (the family's UrlEmbedData / UrlOEmbedData). */
export interface UrlEmbedData {
  /** `link`: Open Graph or page data; `photo` and `video`: from the page's oEmbed. */
  type: 'link' | 'photo' | 'video';
  title: string | null;
  description: string | null;
  image: string | null;
  /** A video's player (oEmbed `html`), which the family's web client shows in a sandbox. */
  html: string | null;
}

/** The family's IMAGE_EXTENSIONS: links whose path ends so are shown as images. */
const IMAGE_EXTENSIONS = ['.bmp', '.gif', '.jpe', '.jpeg', '.jpg', '.png', '.webp'];

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function parse(url: string, realmUrl: string): URL | null {
  try {
    return new URL(url, realmUrl);
  } catch {
    return null;
  }
}

/** Whether a link (not an upload) is shown as an image: its path names an image file. */
export function isImageLink(url: string, realmUrl: string): boolean {
  const u = parse(url, realmUrl);
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) return false;
  // Pages there end in image extensions without being images.
  if (u.host === 'pasteboard.co') return false;
  const path = decodeURIComponentSafe(u.pathname).toLowerCase();
  return IMAGE_EXTENSIONS.some((ext) => path.endsWith(ext));
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Whether a link leads off this server (a page the preview job may fetch). */
export function isExternalLink(url: string, realmUrl: string): boolean {
  if (!/^https?:\/\//i.test(url)) return false;
  const u = parse(url, realmUrl);
  const own = parse(realmUrl, realmUrl);
  return !!u && !!own && u.host !== own.host;
}

const YOUTUBE_HOSTS = new Set(['m.youtube.com', 'www.youtube.com', 'www.youtube-nocookie.com', 'youtube.com', 'youtube-nocookie.com']);

/** The video a YouTube link names, by the family's youtube_id rules. */
export function youtubeId(url: string): string | null {
  if (!/^https?:\/\//i.test(url)) return null;
  const u = parse(url, 'http://invalid');
  if (!u) return null;
  let id: string | null | undefined = null;
  if (YOUTUBE_HOSTS.has(u.hostname)) {
    if ((u.pathname === '/watch' || u.pathname === '/watch_popup') && u.searchParams.has('v')) id = u.searchParams.get('v');
    else if (u.pathname === '/watch_videos' && u.searchParams.has('video_ids')) id = u.searchParams.get('video_ids')!.split(',', 1)[0];
    else if (/^\/(embed|shorts|v)\//.test(u.pathname)) id = u.pathname.split('/')[2];
  } else if (u.hostname === 'youtu.be') {
    id = u.pathname.slice(1);
  }
  return id && /^[0-9A-Za-z_-]+$/.test(id) ? id : null;
}

/** The family's vimeo_id pattern: a video page, in a channel or group or not. */
const VIMEO = /^((http|https)?:\/\/(www\.)?vimeo.com\/(?:channels\/(?:\w+\/)?|groups\/([^/]*)\/videos\/|)(\d+)(?:|\/\?))$/;

export function isVimeoLink(url: string): boolean {
  return VIMEO.test(url);
}

/** The block showing an image link. `href` and `title` are raw; `title` null for none. */
export function imagePreviewHtml(href: string, title: string | null, src: string): string {
  return `<div class="message_inline_image"><a href="${escapeAttr(href)}"${title === null ? '' : ` title="${escapeAttr(title)}"`}><img src="${escapeAttr(src)}"></a></div>`;
}

/** A YouTube link's block: its thumbnail through the proxy, the video's id for the player. */
export function youtubePreviewHtml(href: string, id: string): string {
  const src = proxiedImageUrl(`https://i.ytimg.com/vi/${id}/mqdefault.jpg`);
  return `<div class="youtube-video message_inline_image"><a data-id="${escapeAttr(id)}" href="${escapeAttr(href)}"><img src="${escapeAttr(src)}"></a></div>`;
}

/** The text a YouTube or Vimeo link shows once its page's title is known, as the family's. */
export function videoLinkText(url: string, data: UrlEmbedData): string | null {
  if (!data.title) return null;
  if (youtubeId(url)) return `YouTube - ${data.title}`;
  if (isVimeoLink(url)) return `Vimeo - ${data.title}`;
  return null;
}

/** The block a previewed page adds at the end of the message, or null where it has no image. */
export function embedHtml(link: string, data: UrlEmbedData, realmUrl: string): string | null {
  if (!data.image) return null;
  if (data.type === 'photo' || data.type === 'video') {
    const video = data.type === 'video';
    const cls = video ? 'embed-video message_inline_image' : 'message_inline_image';
    const id = video && data.html !== null ? ` data-id="${escapeAttr(data.html)}"` : '';
    const title = data.title !== null ? ` title="${escapeAttr(data.title)}"` : '';
    return `<div class="${cls}"><a${id} href="${escapeAttr(link)}"${title}><img src="${escapeAttr(imageSrc(data.image, realmUrl))}"></a></div>`;
  }
  // A CSS string: backslashes, quotes and line ends escaped as the family's add_embed does.
  const css = proxiedImageUrl(data.image).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ');
  const title = data.title
    ? `<div class="message_embed_title"><a href="${escapeAttr(link)}" title="${escapeAttr(data.title)}">${escapeText(data.title)}</a></div>`
    : '';
  const description = data.description ? `<div class="message_embed_description">${escapeText(data.description)}</div>` : '';
  return (
    `<div class="message_embed"><a class="message_embed_image" href="${escapeAttr(link)}" style="${escapeAttr(`background-image: url("${css}")`)}"></a>` +
    `<div class="data-container">${title}${description}</div></div>`
  );
}
