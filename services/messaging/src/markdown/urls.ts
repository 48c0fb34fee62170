/** Narrow URLs the way clients of this API build them (hash components with '.' escapes). */
export function encodeHashComponent(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, '%2E')
    .replace(/%/g, '.');
}

export function channelSlug(id: number, name: string): string {
  return encodeHashComponent(`${id}-${name.replace(/ /g, '-')}`);
}

export function channelUrl(id: number, name: string): string {
  return `/#narrow/channel/${channelSlug(id, name)}`;
}

export function topicUrl(id: number, name: string, topic: string): string {
  return `${channelUrl(id, name)}/topic/${encodeHashComponent(topic)}`;
}

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Element text as the family's Markdown serializer escapes it (quotes stay as typed). */
export const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
