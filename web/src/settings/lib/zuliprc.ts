/**
 * The zuliprc file the family's clients and bot frameworks read: an `[api]` section with the
 * account's email, its API key and the server's address (and, for an outgoing webhook bot, the
 * token its bot server checks). Some frameworks need the trailing newline.
 */
export interface ZuliprcAccount {
  email: string;
  apiKey: string;
  site: string;
  token?: string;
}

export function zuliprcText({ email, apiKey, site, token }: ZuliprcAccount): string {
  const lines = ['[api]', `email=${email}`, `key=${apiKey}`, `site=${site.replace(/\/+$/, '')}`];
  if (token) lines.push(`token=${token}`);
  return lines.join('\n') + '\n';
}

/** The file name the family's web app offers: `zuliprc`, or `<bot-short-name>-zuliprc`. */
export function zuliprcFileName(email?: string): string {
  if (!email) return 'zuliprc';
  const local = email.split('@')[0]!.replace(/-bot$/, '');
  return `${local.replace(/[^\w.-]/g, '_')}-zuliprc`;
}
