import type { MailMessage } from '../workers/mail';
import { escapeHtml } from './render';
import { unsubscribeHeaders } from './unsubscribe';

/** The browser a User-Agent names, by the family's rules (its order matters: Chrome says Safari too). */
export function deviceBrowser(userAgent: string): string | null {
  const ua = userAgent.toLowerCase();
  if (ua.includes('zulip')) return 'Zulip';
  if (ua.includes('edge')) return 'Edge';
  if (ua.includes('opera') || ua.includes('opr/')) return 'Opera';
  if ((ua.includes('chrome') || ua.includes('crios')) && !ua.includes('chromium')) return 'Chrome';
  if (ua.includes('firefox') && !ua.includes('seamonkey') && !ua.includes('chrome')) return 'Firefox';
  if (ua.includes('chromium')) return 'Chromium';
  if (ua.includes('safari') && !ua.includes('chrome') && !ua.includes('chromium')) return 'Safari';
  if (ua.includes('msie') || ua.includes('trident')) return 'Internet Explorer';
  return null;
}

/** The operating system a User-Agent names, by the family's rules. */
export function deviceOs(userAgent: string): string | null {
  const ua = userAgent.toLowerCase();
  if (ua.includes('windows')) return 'Windows';
  if (ua.includes('macintosh')) return 'macOS';
  if (ua.includes('linux') && !ua.includes('android')) return 'Linux';
  if (ua.includes('android')) return 'Android';
  if (ua.includes('ios') || ua.includes('like mac os x')) return 'iOS';
  if (ua.includes(' cros ')) return 'ChromeOS';
  return null;
}

/** "Friday, November 28, 2026 at 07:44AM UTC", in the person's time zone and clock. */
export function loginTime(at: Date, timezone: string, twentyFourHour: boolean): string {
  let zone = timezone || 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    zone = 'UTC';
  }
  const part = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', { timeZone: zone, ...o }).format(at);
  const day = part({ weekday: 'long', month: 'long', day: '2-digit', year: 'numeric' });
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: twentyFourHour ? 'h23' : 'h12', timeZoneName: 'short' }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const clock = twentyFourHour ? `${get('hour')}:${get('minute')}` : `${get('hour')}:${get('minute')}${get('dayPeriod')}`;
  return `${day} at ${clock} ${get('timeZoneName')}`;
}

export interface LoginNotice {
  to: string;
  from: { name: string; address: string };
  realm: { name: string; url: string };
  time: string;
  browser: string | null;
  os: string | null;
  ip: string;
  unsubscribeUrl: string;
}

/** The family's "new login" notice: where, when, from what device and address, and what to do if it was not you. */
export function loginNoticeEmail(n: LoginNotice): MailMessage {
  const browser = n.browser ?? 'An unknown browser';
  const os = n.os ?? 'an unknown operating system';
  const ip = n.ip || 'Unknown IP address';
  const reset = `${n.realm.url}/accounts/password/reset/`;
  const facts: Array<[string, string]> = [
    ['Organization', n.realm.url],
    ['Email', n.to],
    ['Time', n.time],
    ['Device', `${browser} on ${os}.`],
    ['IP address', ip],
  ];
  const text = [
    'We noticed a recent login for the following account.',
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    "If this was you, great! There's nothing else you need to do.",
    '',
    `If you do not recognize this login, or think your account may have been compromised, please reset your password at ${reset} or contact your organization's administrators.`,
    '',
    '--',
    `Manage email preferences: ${n.realm.url}/#settings/notifications`,
    `Unsubscribe from login notifications: ${n.unsubscribeUrl}`,
    '',
  ].join('\n');
  const html =
    '<p>We noticed a recent login for the following account.</p><ul>' +
    facts.map(([k, v]) => `<li>${escapeHtml(k)}: ${escapeHtml(v)}</li>`).join('') +
    "</ul><p>If this was you, great! There's nothing else you need to do.</p>" +
    `<p>If you do not recognize this login, or think your account may have been compromised, please <a href="${escapeHtml(reset)}">reset your password</a> or contact your organization's administrators.</p>` +
    `<p><a href="${escapeHtml(`${n.realm.url}/#settings/notifications`)}">Manage email preferences</a> | <a href="${escapeHtml(n.unsubscribeUrl)}">Unsubscribe from login notifications</a></p>`;
  return {
    from: n.from,
    to: n.to,
    subject: `New login from ${browser} on ${os}`,
    text,
    html,
    headers: unsubscribeHeaders(n.unsubscribeUrl),
  };
}
