/**
 * What a push notification says. Who gets one is decided by the rules shared with
 * missed-message email (@chat/notify, `pushTrigger`).
 */

/** The notification text: plain, and short enough for a lock screen. */
export function notificationContent(raw: string): string {
  return truncatedContent(raw).content;
}

/** The same text, and whether it was cut (the legacy FCM payload says so in content_truncated). */
export function truncatedContent(raw: string): { content: string; truncated: boolean } {
  const MAX = 200;
  const text = raw.replace(/\s+/g, ' ').trim();
  return text.length > MAX ? { content: `${text.slice(0, MAX - 1)}…`, truncated: true } : { content: text, truncated: false };
}
