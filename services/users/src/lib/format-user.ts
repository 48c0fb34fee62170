import { ROLE } from '@chat/contracts';
import { avatarUrl } from './avatars';
import { canSeeDeliveryEmail, EMAIL_VISIBILITY } from './emails';

/** The columns of a users row that the User object is built from. */
export interface UserRow {
  id: number;
  email: string;
  deliveryEmail: string;
  fullName: string;
  role: number;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | null;
  isActive: boolean;
  isImportedStub: boolean;
  dateJoined: Date;
  timezone: string;
  avatarSource: string;
  avatarVersion: number;
  settings: unknown;
}

export interface Viewer {
  id: number;
  role: number;
}

export interface FormatOptions {
  realmUrl: string;
  clientGravatar: boolean;
  /** Field id -> {value, rendered_value?} for this user, when profile data was asked for. */
  profileData?: Record<string, { value: string; rendered_value?: string }>;
}

export function emailVisibilityOf(user: { settings: unknown }): number {
  const v = (user.settings as Record<string, unknown> | null)?.email_address_visibility;
  return typeof v === 'number' ? v : EMAIL_VISIBILITY.EVERYONE;
}

/** "2024-05-01T09:30+00:00": minute precision, explicit offset, as clients of this API parse it. */
export function isoMinutes(d: Date): string {
  return `${d.toISOString().slice(0, 16)}+00:00`;
}

/** The User object as `viewer` (null for a spectator) may see it. */
export function formatUser(user: UserRow, viewer: Viewer | null, opts: FormatOptions): Record<string, unknown> {
  const visibility = emailVisibilityOf(user);
  const out: Record<string, unknown> = {
    user_id: user.id,
    email: user.email,
    full_name: user.fullName,
    date_joined: isoMinutes(user.dateJoined),
    is_active: user.isActive,
    is_owner: user.role === ROLE.OWNER,
    is_admin: user.role <= ROLE.ADMINISTRATOR,
    is_guest: user.role === ROLE.GUEST,
    is_bot: user.isBot,
    bot_type: user.isBot ? user.botType : null,
    bot_owner_id: user.isBot ? user.botOwnerId : null,
    role: user.role,
    timezone: user.timezone,
    avatar_url: avatarUrl(user, {
      realmUrl: opts.realmUrl,
      clientGravatar: opts.clientGravatar,
      emailPublic: visibility === EMAIL_VISIBILITY.EVERYONE,
    }),
    avatar_version: user.avatarVersion,
    is_imported_stub: user.isImportedStub,
  };
  if (viewer) {
    out.delivery_email = canSeeDeliveryEmail(viewer, { id: user.id, isBot: user.isBot, visibility })
      ? user.deliveryEmail
      : null;
  }
  if (!user.isBot && opts.profileData) out.profile_data = opts.profileData;
  return out;
}
