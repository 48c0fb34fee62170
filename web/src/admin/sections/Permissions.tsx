/**
 * Organization permissions: who may join (with the allowed email domains), invite, create
 * channels and groups, message, edit, move and delete.
 */
import { t } from '../../i18n';
import { SettingsSection } from '../../settings/controls';
import { useReg } from '../../state/store';
import type { SectionProps } from '../AdminView';
import { ReadOnlyNote } from '../components/ReadOnlyNote';
import { patchRealm } from '../api';
import { SettingsForm } from '../components/SettingsForm';
import { useViewer } from '../data';
import { joinRestrictionsField, PERMISSION_SUBSECTIONS } from '../realmFields';
import { AllowedDomains } from './AllowedDomains';

export default function Permissions({ access }: SectionProps) {
  const reg = useReg();
  const viewer = useViewer();
  // The domains are the owners' to change (the server's rule); administrators see them.
  const domains = <AllowedDomains canEdit={access === 'edit' && viewer.isOwner} showOwnerNote={access === 'edit'} />;
  return (
    <SettingsSection title={t('admin.section.permissions')} testId="admin-permissions">
      {access !== 'edit' && <ReadOnlyNote text={t('admin.read_only')} />}
      {PERMISSION_SUBSECTIONS.map((sub) => (
        <SettingsForm key={sub.id} title={t(sub.title)} fields={sub.fields} source={reg} prefix="realm_" canEdit={access === 'edit'} isOwner={viewer.isOwner} save={patchRealm} testId={`admin-form-${sub.id}`} after={sub.id === 'join' ? { [joinRestrictionsField.name]: domains } : undefined} />
      ))}
    </SettingsSection>
  );
}
