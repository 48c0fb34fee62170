/**
 * A message's HTML as the server rendered it, brought to life after it is put on the page:
 * times in the reader's zone, the reader's own mentions marked, alert words highlighted,
 * Unicode emoji shown as characters, spoilers that open by click or keyboard, images that open
 * full size, and links to `#narrow/...` that navigate here instead of loading the page again.
 * KaTeX's stylesheet is fetched only once a message with math is shown.
 */
import { useLayoutEffect, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { navigate } from '../app/route';
import { t } from '../i18n';
import { emojiChars } from '../emoji/data';
import { openUserCard } from '../people/card';
import type { TimeFormat } from '../ui/time';
import { setFeedView } from './view-state';

export interface RenderContext {
  selfId: number;
  /** Ids of the user groups the reader belongs to (for group mentions). */
  myGroups: ReadonlySet<number>;
  alertWords: readonly string[];
  time: TimeFormat;
}

let katexCss: Promise<unknown> | null = null;

function ensureKatexCss(): void {
  katexCss ??= import('katex/dist/katex.min.css').catch(() => {
    katexCss = null;
  });
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Wraps the reader's alert words in text (not in code, links or mentions) as the family does. */
function highlightAlertWords(root: HTMLElement, words: readonly string[]): void {
  const usable = words.filter((w) => w.trim());
  if (!usable.length) return;
  const re = new RegExp(`(^|[\\s(\\["'])(${usable.map(escapeRegExp).join('|')})(?=$|[\\s)\\]"'.,;:!?])`, 'gi');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement?.closest('code, pre, a, .user-mention, .user-group-mention, .alert-word, .katex') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes: Text[] = [];
  while (walker.nextNode()) nodes.push(walker.currentNode as Text);
  for (const node of nodes) {
    const text = node.data;
    re.lastIndex = 0;
    if (!re.test(text)) continue;
    re.lastIndex = 0;
    const frag = document.createDocumentFragment();
    let last = 0;
    for (const m of text.matchAll(re)) {
      const start = m.index + m[1]!.length;
      frag.append(text.slice(last, start));
      const span = document.createElement('span');
      span.className = 'alert-word';
      span.textContent = m[2]!;
      frag.append(span);
      last = start + m[2]!.length;
    }
    frag.append(text.slice(last));
    node.replaceWith(frag);
  }
}

/** The post-processing of freshly inserted message HTML. */
export function enhance(root: HTMLElement, ctx: RenderContext, hasAlertWord: boolean): void {
  for (const el of root.querySelectorAll<HTMLTimeElement>('time[datetime]')) {
    const ts = Date.parse(el.dateTime) / 1000;
    if (Number.isNaN(ts)) continue;
    if (!el.title) el.title = el.textContent ?? '';
    el.textContent = ctx.time.full(ts);
  }
  for (const el of root.querySelectorAll<HTMLElement>('.user-mention[data-user-id]')) {
    const id = el.dataset.userId;
    if (id === '*' || Number(id) === ctx.selfId) el.classList.add('user-mention-me');
  }
  for (const el of root.querySelectorAll<HTMLElement>('.user-group-mention[data-user-group-id]')) {
    if (ctx.myGroups.has(Number(el.dataset.userGroupId))) el.classList.add('user-mention-me');
  }
  for (const el of root.querySelectorAll<HTMLElement>('.topic-mention')) el.classList.add('user-mention-me');
  for (const el of root.querySelectorAll<HTMLElement>('span.emoji')) {
    const code = [...el.classList].find((c) => c.startsWith('emoji-') && c !== 'emoji-')?.slice('emoji-'.length);
    const chars = code ? emojiChars(code) : '';
    if (chars && el.textContent?.startsWith(':')) el.textContent = chars;
  }
  for (const el of root.querySelectorAll<HTMLElement>('.spoiler-header')) {
    el.setAttribute('role', 'button');
    el.tabIndex = 0;
    // Run again on the same content (new settings), an opened spoiler stays open.
    el.setAttribute('aria-expanded', String(!!el.closest('.spoiler-block')?.classList.contains('spoiler-open')));
    if (!el.textContent?.trim() && !el.querySelector('.spoiler-label')) {
      const label = document.createElement('span');
      label.className = 'spoiler-label';
      label.textContent = t('feed.spoiler');
      el.append(label);
    }
  }
  for (const a of root.querySelectorAll<HTMLAnchorElement>('a[href]')) {
    if (internalHash(a) === null) {
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
    }
  }
  if (root.querySelector('.katex')) ensureKatexCss();
  if (hasAlertWord) highlightAlertWords(root, ctx.alertWords);
}

/** The `#narrow/...` hash a link inside a message points to on this site, or null. */
export function internalHash(a: HTMLAnchorElement): string | null {
  const href = a.getAttribute('href');
  if (!href) return null;
  if (href.startsWith('#narrow/')) return href;
  try {
    const url = new URL(href, location.href);
    if (url.origin === location.origin && (url.pathname === '/' || url.pathname === location.pathname) && url.hash.startsWith('#narrow/')) return url.hash;
  } catch {
    return null;
  }
  return null;
}

function toggleSpoiler(header: HTMLElement): void {
  const block = header.closest('.spoiler-block');
  if (!block) return;
  const open = block.classList.toggle('spoiler-open');
  header.setAttribute('aria-expanded', String(open));
  block.querySelector('.spoiler-content')?.setAttribute('aria-hidden', String(!open));
}

function onContentClick(e: MouseEvent<HTMLDivElement>): void {
  const target = e.target as HTMLElement;
  const spoiler = target.closest<HTMLElement>('.spoiler-header');
  if (spoiler && !target.closest('a')) {
    toggleSpoiler(spoiler);
    return;
  }
  const image = target.closest<HTMLAnchorElement>('.message_inline_image a');
  if (image) {
    e.preventDefault();
    const img = image.querySelector('img');
    setFeedView({ lightbox: { src: img?.getAttribute('data-src-fullsize') ?? image.href, alt: img?.alt ?? image.title ?? '', href: image.href } });
    return;
  }
  const mention = target.closest<HTMLElement>('.user-mention[data-user-id]');
  if (mention && mention.dataset.userId !== '*') {
    openUserCard(Number(mention.dataset.userId), mention);
    return;
  }
  const link = target.closest<HTMLAnchorElement>('a[href]');
  if (link && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) {
    const hash = internalHash(link);
    if (hash) {
      e.preventDefault();
      navigate(hash);
    }
  }
}

function onContentKey(e: KeyboardEvent<HTMLDivElement>): void {
  const target = e.target as HTMLElement;
  if ((e.key === 'Enter' || e.key === ' ') && target.classList.contains('spoiler-header')) {
    e.preventDefault();
    e.stopPropagation();
    toggleSpoiler(target);
  }
}

export function Rendered({ html, ctx, hasAlertWord, className }: { html: string; ctx: RenderContext; hasAlertWord: boolean; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (ref.current) enhance(ref.current, ctx, hasAlertWord);
  }, [html, ctx, hasAlertWord]);
  return (
    // The HTML is the server's own rendering of the message (the family's Markdown processor escapes what people type).
    <div ref={ref} className={`message-content rendered_markdown${className ? ` ${className}` : ''}`} onClick={onContentClick} onKeyDown={onContentKey} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
