/**
 * Organization administration at `#organization/<section>`: the list of sections the viewer
 * may see and the chosen one. Loaded only when opened (MainView imports it lazily).
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { t } from '../i18n';
import { SettingsLayout } from '../settings/controls';
import { useViewer } from './data';
import { sectionAccess, sectionFromHash, visibleSections, type Access, type SectionId } from './sections';
import '../styles/admin.css';

export interface SectionProps {
  access: Access;
}

type Loader = () => Promise<{ default: ComponentType<SectionProps> }>;

// Each section is its own chunk: opening the profile does not load the users table.
const LOADERS: Record<SectionId, Loader> = {
  'organization-profile': () => import('./sections/OrgProfile'),
  'organization-settings': () => import('./sections/OrgSettings'),
  'organization-permissions': () => import('./sections/Permissions'),
  'auth-methods': () => import('./sections/AuthMethods'),
  'organization-level-user-defaults': () => import('./sections/UserDefaults'),
  users: () => import('./sections/Users'),
  invites: () => import('./sections/Invitations'),
  channels: () => import('./sections/Channels'),
  'default-channels-list': () => import('./sections/DefaultChannels'),
  'channel-folders': () => import('./sections/ChannelFolders'),
  'user-groups': () => import('./sections/UserGroups'),
  'emoji-settings': () => import('./sections/Emoji'),
  'linkifier-settings': () => import('./sections/Linkifiers'),
  'playground-settings': () => import('./sections/Playgrounds'),
  'profile-field-settings': () => import('./sections/ProfileFields'),
  'data-exports-admin': () => import('./sections/DataExports'),
};

const SECTION_COMPONENTS = Object.fromEntries(Object.entries(LOADERS).map(([id, load]) => [id, lazy(load)])) as unknown as Record<SectionId, ComponentType<SectionProps>>;

export default function AdminView({ section }: { section: string }) {
  const viewer = useViewer();
  const sections = visibleSections(viewer);
  let id = sectionFromHash(section);
  if (sectionAccess(id, viewer) === 'hidden') id = sections[0]?.id ?? 'organization-profile';
  const Section = SECTION_COMPONENTS[id];
  return (
    <SettingsLayout
      title={t('admin.title')}
      sections={sections.map((s) => ({ key: s.id, label: t(s.label) }))}
      current={id}
      hrefOf={(key) => `#organization/${key}`}
      testId="admin-view"
    >
      <Suspense fallback={<p role="status">{t('settings.loading')}</p>}>
        <Section key={id} access={sectionAccess(id, viewer)} />
      </Suspense>
    </SettingsLayout>
  );
}
