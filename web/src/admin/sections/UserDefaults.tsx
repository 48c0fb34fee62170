/** Default settings for new users: what a person who joins starts with. */
import { t } from '../../i18n';
import { SettingsSection } from '../../settings/controls';
import { useReg } from '../../state/store';
import type { SectionProps } from '../AdminView';
import { ReadOnlyNote } from '../components/ReadOnlyNote';
import { patchUserDefaults } from '../api';
import { SettingsForm } from '../components/SettingsForm';
import { useViewer } from '../data';
import { DEFAULTS_SUBSECTIONS } from '../defaultsFields';

export default function UserDefaults({ access }: SectionProps) {
  const reg = useReg();
  const viewer = useViewer();
  const source = (reg.realm_user_settings_defaults ?? {}) as Record<string, unknown>;
  return (
    <SettingsSection title={t('admin.section.defaults')} description={t('admin.defaults.about')} testId="admin-user-defaults">
      {access !== 'edit' && <ReadOnlyNote text={t('admin.read_only')} />}
      {DEFAULTS_SUBSECTIONS.map((sub) => (
        <SettingsForm key={sub.id} title={t(sub.title)} fields={sub.fields} source={source} canEdit={access === 'edit'} isOwner={viewer.isOwner} save={patchUserDefaults} testId={`admin-defaults-${sub.id}`} />
      ))}
    </SettingsSection>
  );
}
