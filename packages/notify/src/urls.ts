/**
 * Links into a conversation of the web app (`<realm>/#narrow/...`), as the family's server puts
 * them in its notification emails: a channel's topic, or the direct messages with some people.
 */

/** The family's hash encoding: URI encoding, with `.` standing in for `%` (and escaping itself). */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, '%2E')
    .replace(/%/g, '.');
}

export function channelNarrowUrl(realmUrl: string, channel: { id: number; name: string }): string {
  return `${realmUrl}/#narrow/channel/${encodeHashComponent(`${channel.id}-${channel.name.replace(/ /g, '-')}`)}`;
}

export function topicNarrowUrl(realmUrl: string, channel: { id: number; name: string }, topic: string): string {
  return `${channelNarrowUrl(realmUrl, channel)}/topic/${encodeHashComponent(topic)}`;
}

/**
 * Direct messages with `others` (the reader left out): one person's id and name slug, or the
 * sorted ids of a group followed by `-group`.
 */
export function directNarrowUrl(realmUrl: string, others: Array<{ id: number; fullName: string }>): string {
  if (others.length === 1) {
    const [other] = others;
    return `${realmUrl}/#narrow/dm/${other!.id}-${other!.fullName.replace(/[ "%/<>`\p{C}]+/gu, '-')}`;
  }
  const ids = others.map((o) => o.id).sort((a, b) => a - b);
  return `${realmUrl}/#narrow/dm/${ids.join(',')}-group`;
}
