/** Organization settings: automated messages and emails, message retention, other settings. */
import { t } from '../../i18n';
import { SettingsSection } from '../../settings/controls';
import { useReg } from '../../state/store';
import type { SectionProps } from '../AdminView';
import { ReadOnlyNote } from '../components/ReadOnlyNote';
import { patchRealm } from '../api';
import { SettingsForm } from '../components/SettingsForm';
import { useViewer } from '../data';
import { SETTINGS_SUBSECTIONS } from '../realmFields';

export default function OrgSettings({ access }: SectionProps) {
  const reg = useReg();
  const viewer = useViewer();
  return (
    <SettingsSection title={t('admin.section.settings')} testId="admin-org-settings">
      {access !== 'edit' && <ReadOnlyNote text={t('admin.read_only')} />}
      {SETTINGS_SUBSECTIONS.map((sub) => (
        <SettingsForm key={sub.id} title={t(sub.title)} fields={sub.fields} source={reg} prefix="realm_" canEdit={access === 'edit'} isOwner={viewer.isOwner} save={patchRealm} testId={`admin-form-${sub.id}`} />
      ))}
    </SettingsSection>
  );
}
