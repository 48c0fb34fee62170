/**
 * Personal settings at `#settings/<section>`: the list of sections and the chosen one. Loaded
 * on demand (a chunk of its own), as most visits never open it.
 */
import type { ReactNode } from 'react';
import { t, type StringKey } from '../i18n';
import { SettingsLayout } from './controls';
import { AccountSection } from './sections/AccountSection';
import { AlertWordsSection } from './sections/AlertWordsSection';
import { BotsSection } from './sections/BotsSection';
import { MutedUsersSection } from './sections/MutedUsersSection';
import { NotificationsSection } from './sections/NotificationsSection';
import { PreferencesSection } from './sections/PreferencesSection';
import { ProfileSection } from './sections/ProfileSection';
import { TopicsSection } from './sections/TopicsSection';

/** Sections by their hash names (the family's), in the order listed. */
const SECTIONS: ReadonlyArray<{ key: string; label: StringKey; render: () => ReactNode }> = [
  { key: 'profile', label: 'settings.nav.profile', render: () => <ProfileSection /> },
  { key: 'account-and-privacy', label: 'settings.nav.account', render: () => <AccountSection /> },
  { key: 'preferences', label: 'settings.nav.preferences', render: () => <PreferencesSection /> },
  { key: 'notifications', label: 'settings.nav.notifications', render: () => <NotificationsSection /> },
  { key: 'muted-users', label: 'settings.nav.muted_users', render: () => <MutedUsersSection /> },
  { key: 'topics', label: 'settings.nav.topics', render: () => <TopicsSection /> },
  { key: 'alert-words', label: 'settings.nav.alert_words', render: () => <AlertWordsSection /> },
  { key: 'your-bots', label: 'settings.nav.bots', render: () => <BotsSection /> },
];

/** Older names of sections that links may still carry. */
const ALIASES: Record<string, string> = {
  'your-account': 'account-and-privacy',
  'display-settings': 'preferences',
  'bots': 'your-bots',
  'muted-topics': 'topics',
  '': 'profile',
};

export function sectionKey(section: string): string {
  return ALIASES[section] ?? section;
}

export default function SettingsView({ section }: { section: string }) {
  const key = sectionKey(section);
  const current = SECTIONS.find((s) => s.key === key);
  return (
    <SettingsLayout
      title={t('settings.title')}
      sections={SECTIONS.map((s) => ({ key: s.key, label: t(s.label) }))}
      current={key}
      hrefOf={(k) => `#settings/${k}`}
      testId="settings-view"
    >
      {current ? current.render() : <p className="settings-note" role="alert">{t('settings.unknown_section', { section })}</p>}
    </SettingsLayout>
  );
}
