/**
 * The organization settings' sections, at `#organization/<id>` (the family's section names),
 * and who sees each: administrators change most of them, owners the most sensitive ones; other
 * people see read-only what the family shows them, and nothing of the rest.
 */
import type { StringKey } from '../i18n';

export type SectionId =
  | 'organization-profile'
  | 'organization-settings'
  | 'organization-permissions'
  | 'auth-methods'
  | 'organization-level-user-defaults'
  | 'users'
  | 'invites'
  | 'channels'
  | 'default-channels-list'
  | 'channel-folders'
  | 'user-groups'
  | 'emoji-settings'
  | 'linkifier-settings'
  | 'playground-settings'
  | 'profile-field-settings'
  | 'data-exports-admin';

export const SECTIONS: ReadonlyArray<{ id: SectionId; label: StringKey }> = [
  { id: 'organization-profile', label: 'admin.section.profile' },
  { id: 'organization-settings', label: 'admin.section.settings' },
  { id: 'organization-permissions', label: 'admin.section.permissions' },
  { id: 'auth-methods', label: 'admin.section.auth' },
  { id: 'organization-level-user-defaults', label: 'admin.section.defaults' },
  { id: 'users', label: 'admin.section.users' },
  { id: 'invites', label: 'admin.section.invites' },
  { id: 'channels', label: 'admin.section.channels' },
  { id: 'default-channels-list', label: 'admin.section.default_channels' },
  { id: 'channel-folders', label: 'admin.section.folders' },
  { id: 'user-groups', label: 'admin.section.groups' },
  { id: 'emoji-settings', label: 'admin.section.emoji' },
  { id: 'linkifier-settings', label: 'admin.section.linkifiers' },
  { id: 'playground-settings', label: 'admin.section.playgrounds' },
  { id: 'profile-field-settings', label: 'admin.section.profile_fields' },
  { id: 'data-exports-admin', label: 'admin.section.exports' },
];

/** Older and shorter names links may carry. */
const ALIASES: Record<string, SectionId> = {
  profile: 'organization-profile',
  'deactivated-users-admin': 'users',
  'bot-list-admin': 'users',
  'user-list-admin': 'users',
  'invites-list-admin': 'invites',
  'default-streams-list': 'default-channels-list',
  groups: 'user-groups',
  'auth-methods-admin': 'auth-methods',
};

export function sectionFromHash(section: string): SectionId {
  const known = SECTIONS.find((s) => s.id === section);
  return known ? known.id : (ALIASES[section] ?? 'organization-profile');
}

export type Access = 'edit' | 'read' | 'hidden';

export interface Viewer {
  isOwner: boolean;
  isAdmin: boolean;
  isGuest: boolean;
  /** In the realm's can_invite_users_group. */
  canInvite: boolean;
}

/** What a viewer may do in a section (changes within it may ask more, e.g. owner-only fields). */
export function sectionAccess(id: SectionId, v: Viewer): Access {
  switch (id) {
    case 'auth-methods':
      return v.isOwner ? 'edit' : v.isAdmin ? 'read' : 'hidden';
    case 'data-exports-admin':
      return v.isAdmin ? 'edit' : 'hidden';
    case 'invites':
      return v.isAdmin || v.canInvite ? 'edit' : 'hidden';
    case 'channel-folders':
    case 'channels':
      return v.isAdmin ? 'edit' : v.isGuest ? 'hidden' : 'read';
    case 'user-groups':
      // Each group says who may manage it; the list itself is open to members.
      return v.isGuest ? 'hidden' : 'edit';
    case 'emoji-settings':
      // Who may add emoji is a realm setting; the list is shown to everyone.
      return 'edit';
    default:
      return v.isAdmin ? 'edit' : v.isGuest && id !== 'organization-profile' ? 'hidden' : 'read';
  }
}

export function visibleSections(v: Viewer) {
  return SECTIONS.filter((s) => sectionAccess(s.id, v) !== 'hidden');
}
