/**
 * URL of a realm as the gateway computes it: `<scheme>://[<string_id>.]<EXTERNAL_HOST>`, the
 * root realm (string id "") on the bare host.
 */
export function realmSiteUrl(stringId: string, config: { EXTERNAL_SCHEME: string; EXTERNAL_HOST: string }): string {
  return `${config.EXTERNAL_SCHEME}://${stringId ? `${stringId}.` : ''}${config.EXTERNAL_HOST}`;
}

export function zuliprc(user: { email: string; apiKey: string }, site: string): string {
  return `[api]\nemail=${user.email}\nkey=${user.apiKey}\nsite=${site}\n`;
}
