/** What a user card shows of a person: role, email per visibility, local time, profile fields. */
import type { RegisterState, User } from '@chat/client';
import { t, type StringKey } from '../i18n';

const ROLE_KEYS: Record<number, StringKey> = { 100: 'people.role.owner', 200: 'people.role.admin', 300: 'people.role.moderator', 400: 'people.role.member', 600: 'people.role.guest' };

export function roleText(user: User): string {
  if (user.is_bot) return t('people.role.bot');
  return t(ROLE_KEYS[user.role] ?? 'people.role.member');
}

/**
 * The address to show: the real one where the organization lets the viewer see it
 * (delivery_email is then present), else the account's email unless it is the server's
 * stand-in (`user123@…`), which tells nobody anything.
 */
export function visibleEmail(user: User): string | undefined {
  if (user.delivery_email) return user.delivery_email;
  if (/^user\d+@/.test(user.email)) return undefined;
  return user.email;
}

export function localTime(timezone: string | undefined, twentyFour: boolean, now = new Date()): string | undefined {
  if (!timezone) return undefined;
  try {
    return now.toLocaleTimeString(undefined, { timeZone: timezone, hour: twentyFour ? '2-digit' : 'numeric', minute: '2-digit', hour12: !twentyFour });
  } catch {
    return undefined;
  }
}

export interface ProfileFieldView {
  id: number;
  name: string;
  /** Plain text, or HTML the server rendered (long text), or a link. */
  text?: string;
  html?: string;
  href?: string;
  userIds?: number[];
}

interface FieldDef {
  id: number;
  name: string;
  type: number;
  field_data?: string;
  order?: number;
  display_in_profile_summary?: boolean;
}

/** The person's filled-in custom profile fields, in the organization's order. */
export function profileFields(reg: RegisterState, user: User, summaryOnly = false): ProfileFieldView[] {
  const defs = ((reg.custom_profile_fields as FieldDef[] | undefined) ?? []).slice().sort((a, b) => (a.order ?? a.id) - (b.order ?? b.id));
  const out: ProfileFieldView[] = [];
  for (const def of defs) {
    if (summaryOnly && def.display_in_profile_summary === false) continue;
    const entry = user.profile_data?.[String(def.id)];
    if (!entry || entry.value === '' || entry.value === null || entry.value === undefined) continue;
    const base = { id: def.id, name: def.name };
    switch (def.type) {
      case 2:
        out.push({ ...base, ...(entry.rendered_value ? { html: entry.rendered_value } : { text: entry.value }) });
        break;
      case 3: {
        let options: Record<string, { text: string }> = {};
        try {
          options = JSON.parse(def.field_data ?? '{}');
        } catch {
          // A malformed list: the raw value shows.
        }
        out.push({ ...base, text: options[entry.value]?.text ?? entry.value });
        break;
      }
      case 5:
        out.push({ ...base, text: entry.value, href: /^https?:\/\//i.test(entry.value) ? entry.value : undefined });
        break;
      case 6: {
        let ids: number[] = [];
        try {
          ids = JSON.parse(entry.value);
        } catch {
          // Not a list of ids.
        }
        out.push({ ...base, userIds: ids });
        break;
      }
      case 7: {
        let fd: { subtype?: string; url_pattern?: string } = {};
        try {
          fd = JSON.parse(def.field_data ?? '{}');
        } catch {
          // No pattern: the name alone.
        }
        const pattern = fd.subtype === 'github' ? 'https://github.com/%(username)s' : fd.subtype === 'twitter' ? 'https://x.com/%(username)s' : fd.url_pattern;
        out.push({ ...base, text: entry.value, href: pattern ? pattern.replace('%(username)s', encodeURIComponent(entry.value)) : undefined });
        break;
      }
      default:
        out.push({ ...base, text: entry.value });
    }
  }
  return out;
}
