/**
 * The personal menu in the header: your status and profile, settings (and the organization's,
 * for administrators), the keyboard shortcuts, the light/dark switch and logging out.
 */
import { logout } from '../events/loop';
import { api, errorText } from '../api';
import { t } from '../i18n';
import { openProfile, openStatus } from '../people/card';
import { setShortcutsHelp } from '../shortcuts/state';
import { showSidebarError } from '../sidebar/errors';
import { useReg } from '../state/store';
import { Avatar } from '../ui/Avatar';
import { MenuButton, type MenuItem } from '../ui/Menu';
import { COLOR_SCHEME, useTheme } from '../ui/theme';

export async function setColorScheme(scheme: number): Promise<void> {
  try {
    await api.call('PATCH', '/settings', { color_scheme: scheme });
  } catch (err) {
    showSidebarError(errorText(err));
  }
}

export function PersonalMenu() {
  const reg = useReg();
  const theme = useTheme();
  const isAdmin = reg.is_admin || reg.is_owner;
  const items: MenuItem[] = [
    {
      kind: 'custom',
      render: () => (
        <span className="menu-identity">
          <strong>{reg.full_name}</strong>
          <span className="menu-email">{reg.email}</span>
        </span>
      ),
    },
    { kind: 'separator' },
    { label: t('nav.menu.set_status'), onSelect: openStatus, testId: 'menu-status' },
    { label: t('nav.menu.profile'), onSelect: () => openProfile(reg.user_id) },
    { kind: 'link', label: t('misc.settings'), href: '#settings/profile' },
    ...(isAdmin ? [{ kind: 'link' as const, label: t('misc.organization'), href: '#organization/organization-profile' }] : []),
    { kind: 'separator' },
    { label: t('nav.menu.shortcuts'), onSelect: () => setShortcutsHelp(true) },
    { label: theme === 'dark' ? t('nav.menu.light') : t('nav.menu.dark'), onSelect: () => void setColorScheme(theme === 'dark' ? COLOR_SCHEME.light : COLOR_SCHEME.dark), testId: 'menu-theme' },
    { kind: 'separator' },
    { label: t('misc.logout'), onSelect: () => void logout(), testId: 'menu-logout' },
  ];
  return (
    <MenuButton label={t('nav.menu.personal')} items={items} align="end" className="personal-menu" testId="personal-menu">
      <Avatar userId={reg.user_id} size={28} presence />
    </MenuButton>
  );
}
