/** Profile: name, profile picture and the organization's custom profile fields. */
import { useId, useRef } from 'react';
import { t } from '../../i18n';
import { useReg } from '../../state/store';
import { Avatar } from '../../ui/Avatar';
import { SaveState, SettingsGroup, SettingsSection, TextSetting, useSave } from '../controls';
import { deleteAvatar, patchSettings, uploadAvatar } from '../lib/calls';
import { useMe } from '../lib/hooks';
import { ProfileFields } from './ProfileFields';

export function ProfileSection() {
  return (
    <SettingsSection title={t('settings.nav.profile')} testId="settings-profile">
      <NameSetting />
      <AvatarSetting />
      <ProfileFields />
    </SettingsSection>
  );
}

function NameSetting() {
  const reg = useReg();
  const me = useMe();
  const name = me?.full_name ?? reg.full_name;
  const save = useSave(name);
  const locked = reg.realm_name_changes_disabled === true && !reg.is_admin;
  return (
    <TextSetting
      name="full_name"
      label={t('settings.profile.name')}
      value={save.value}
      maxLength={Number(reg.max_name_length ?? 100)}
      disabled={locked}
      hint={locked ? t('settings.profile.name_disabled') : undefined}
      status={save.status}
      onSave={(v) => {
        const next = v.trim();
        save.save(() => patchSettings({ full_name: next }), next);
      }}
    />
  );
}

function AvatarSetting() {
  const reg = useReg();
  const me = useMe();
  const url = me?.avatar_url ?? reg.avatar_url ?? null;
  const source = reg.avatar_source as string | undefined;
  const save = useSave<string | null>(url);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const locked = reg.realm_avatar_changes_disabled === true && !reg.is_admin;
  const maxMib = Number(reg.max_avatar_file_size_mib ?? 5);

  const onFile = (file: File | undefined) => {
    if (!file) return;
    if (file.size > maxMib * 1024 * 1024) return save.fail(t('settings.profile.avatar_too_big', { size: maxMib }));
    const before = url;
    // The new picture has a new address: the realm_user event carrying it confirms the upload.
    save.save(() => uploadAvatar(file), undefined, (now) => now !== before);
    if (input.current) input.current.value = '';
  };
  const onDelete = () => {
    const before = url;
    save.save(() => deleteAvatar(), undefined, (now) => now !== before);
  };

  return (
    <SettingsGroup title={t('settings.profile.avatar')}>
      <div className="settings-actions">
        <span role="img" aria-label={t('settings.profile.avatar_alt')}>
          <Avatar userId={reg.user_id} size={100} className="settings-avatar" />
        </span>
        <div>
          <button type="button" onClick={() => input.current?.click()} disabled={locked || save.status.kind === 'saving'} aria-describedby={`${id}-state`}>
            {t('settings.profile.avatar_upload')}
          </button>
          <input ref={input} type="file" accept="image/*" hidden aria-label={t('settings.profile.avatar_upload')} onChange={(e) => onFile(e.target.files?.[0])} />{' '}
          {source !== 'G' && (
            <button type="button" onClick={onDelete} disabled={locked || save.status.kind === 'saving'}>{t('settings.profile.avatar_delete')}</button>
          )}
          <div><SaveState id={`${id}-state`} status={save.status} /></div>
          {locked && <p className="setting-hint">{t('settings.profile.avatar_disabled')}</p>}
        </div>
      </div>
    </SettingsGroup>
  );
}
