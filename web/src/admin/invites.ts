/** Invitations: the form's values as the requests POST /invites and POST /invites/multiuse take them. */
export interface InviteForm {
  emails: string;
  inviteAs: number;
  /** null: the invitation never expires. */
  expiresInMinutes: number | null;
  /** Subscribe to the organization's default channels (then `streamIds` add to them). */
  includeDefaults: boolean;
  streamIds: number[];
  groupIds: number[];
  notifyReferrer: boolean;
}

export const EXPIRY_CHOICES: ReadonlyArray<{ minutes: number | null; label: import('../i18n').StringKey }> = [
  { minutes: 30, label: 'admin.invite.expiry.30m' },
  { minutes: 24 * 60, label: 'admin.invite.expiry.1d' },
  { minutes: 3 * 24 * 60, label: 'admin.invite.expiry.3d' },
  { minutes: 10 * 24 * 60, label: 'admin.invite.expiry.10d' },
  { minutes: 30 * 24 * 60, label: 'admin.invite.expiry.30d' },
  { minutes: null, label: 'admin.invite.expiry.never' },
];

/** Addresses separated by commas, semicolons, spaces or new lines, each once. */
export function parseEmails(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((e) => e.trim()).filter(Boolean))];
}

function common(f: InviteForm): Record<string, unknown> {
  return {
    invite_as: f.inviteAs,
    invite_expires_in_minutes: f.expiresInMinutes,
    stream_ids: f.streamIds,
    include_realm_default_subscriptions: f.includeDefaults,
    ...(f.groupIds.length ? { group_ids: f.groupIds } : {}),
  };
}

export function emailInviteParams(f: InviteForm): Record<string, unknown> {
  return { invitee_emails: parseEmails(f.emails).join(','), ...common(f), notify_referrer_on_join: f.notifyReferrer };
}

export function linkInviteParams(f: InviteForm): Record<string, unknown> {
  return common(f);
}

/** The roles a viewer may invite as: owners any, administrators up to administrator, others members and guests. */
export function invitableRoles(v: { isOwner: boolean; isAdmin: boolean }): number[] {
  if (v.isOwner) return [600, 400, 300, 200, 100];
  if (v.isAdmin) return [600, 400, 300, 200];
  return [600, 400];
}

/** An invitation as GET /invites lists it. */
export interface Invite {
  id: number;
  invited_by_user_id: number;
  invited: number;
  expiry_date: number | null;
  invited_as: number;
  email?: string;
  is_multiuse: boolean;
  link_url?: string;
  notify_referrer_on_join?: boolean;
}

/** Newest first. */
export function sortInvites(list: readonly Invite[]): Invite[] {
  return [...list].sort((a, b) => b.invited - a.invited || b.id - a.id);
}
