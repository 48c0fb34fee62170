/**
 * Small Markdown subset for realm descriptions and profile values: paragraphs, line breaks,
 * **bold**, *italic*, `code` and links. Everything is HTML-escaped first, so nothing a user
 * types becomes markup of its own.
 */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, '<a href="$2">$1</a>')
    .replace(/(^|[\s(])(https?:\/\/[^\s<)]+)/g, '$1<a href="$2">$2</a>');
}

export function renderMarkdown(source: string): string {
  const paragraphs = source.trim().split(/\n\s*\n/).filter((p) => p.trim() !== '');
  return paragraphs.map((p) => `<p>${p.split('\n').map(inline).join('<br>\n')}</p>`).join('\n');
}

export const renderDescription = renderMarkdown;
