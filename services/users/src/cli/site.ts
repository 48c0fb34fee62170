/**
 * URL of a realm as the gateway computes it: `<scheme>://[<string_id>.]<EXTERNAL_HOST>`, the
 * root realm (string id "") on the bare host.
 */
export function realmSiteUrl(stringId: string, env: Record<string, string | undefined> = process.env): string {
  const scheme = env.EXTERNAL_SCHEME ?? 'http';
  const host = env.EXTERNAL_HOST ?? '127.0.0.1:9991';
  return `${scheme}://${stringId ? `${stringId}.` : ''}${host}`;
}

export function zuliprc(user: { email: string; apiKey: string }, site: string): string {
  return `[api]\nemail=${user.email}\nkey=${user.apiKey}\nsite=${site}\n`;
}
