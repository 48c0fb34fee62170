/** The organization's name, type, description and icon. */
import { useRef, useState } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { SaveState, SettingsGroup, SettingsSection, useSave } from '../../settings/controls';
import { useReg } from '../../state/store';
import type { SectionProps } from '../AdminView';
import { call, patchRealm, upload } from '../api';
import { ReadOnlyNote } from '../components/ReadOnlyNote';
import { SettingsForm } from '../components/SettingsForm';
import { useViewer } from '../data';
import { PROFILE_SUBSECTIONS } from '../realmFields';

export default function OrgProfile({ access }: SectionProps) {
  const reg = useReg();
  const viewer = useViewer();
  const canEdit = access === 'edit';
  return (
    <SettingsSection title={t('admin.section.profile')} testId="admin-org-profile">
      {!canEdit && <ReadOnlyNote text={t('admin.read_only')} />}
      {PROFILE_SUBSECTIONS.map((sub) => (
        <SettingsForm key={sub.id} title={t(sub.title)} fields={sub.fields} source={reg} prefix="realm_" canEdit={canEdit} isOwner={viewer.isOwner} save={patchRealm} testId={`admin-form-${sub.id}`} />
      ))}
      <IconSetting canEdit={canEdit} />
      <SettingsGroup title={t('admin.profile.url')}>
        <p className="settings-key">{String(reg.realm_url ?? reg.realm_uri ?? location.origin)}</p>
      </SettingsGroup>
    </SettingsSection>
  );
}

function IconSetting({ canEdit }: { canEdit: boolean }) {
  const reg = useReg();
  const url = String(reg.realm_icon_url ?? '');
  const uploaded = reg.realm_icon_source === 'U';
  const saving = useSave(url);
  const input = useRef<HTMLInputElement>(null);
  // An icon that cannot be fetched (e.g. a Gravatar with no internet access) is left out.
  const [brokenUrl, setBroken] = useState<string | null>(null);
  const broken = brokenUrl === url;
  const send = (request: () => Promise<unknown>) => {
    const before = url;
    // Done when the event brings a different icon address.
    saving.save(() => request().catch((err: unknown) => Promise.reject(new Error(errorText(err)))), undefined, (c) => c !== before);
  };
  return (
    <SettingsGroup title={t('admin.profile.icon')}>
      <div className="settings-actions admin-icon-state">
        {url && !broken && <img src={url} alt={t('admin.profile.icon_alt')} className="admin-icon" width={64} height={64} onError={() => setBroken(url)} />}
        {canEdit && (
          <>
            <button type="button" onClick={() => input.current?.click()}>{t('admin.profile.upload_icon')}</button>
            <input
              ref={input}
              type="file"
              accept="image/*"
              hidden
              aria-label={t('admin.profile.upload_icon')}
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) send(() => upload('/realm/icon', file));
                e.target.value = '';
              }}
            />
            {uploaded && (
              <button type="button" onClick={() => send(() => call('DELETE', '/realm/icon'))}>{t('admin.profile.remove_icon')}</button>
            )}
          </>
        )}
        <SaveState status={saving.status} />
      </div>
    </SettingsGroup>
  );
}
