/**
 * Editing a person as an administrator: name, role and custom profile fields, sent together
 * with PATCH /users/{id}. The dialog stays open, saying "Saving…", until the realm_user event
 * shows the change, and closes then; a refusal is shown in it.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import type { User } from '@chat/client';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { SaveState, useSave } from '../../settings/controls';
import { useReg } from '../../state/store';
import { Dialog } from '../../ui/Dialog';
import { call } from '../api';
import { FIELD_TYPES, ProfileFieldInput, type ProfileFieldDef } from '../components/ProfileFieldInput';
import { useHumans } from '../data';
import { roleLabel } from '../labels';
import { assignableRoles, parseUserIds, profileEntry, type Actor } from '../people';

type Entered = string | number[];

function enteredOf(user: User, field: ProfileFieldDef): Entered {
  const raw = user.profile_data?.[String(field.id)]?.value;
  return field.type === FIELD_TYPES.USER ? parseUserIds(raw) : (raw ?? '');
}

export function UserEditDialog({ user, actor, onClose }: { user: User; actor: Actor; onClose: () => void }) {
  const reg = useReg();
  const humans = useHumans();
  const fields = useMemo(() => ((reg.custom_profile_fields ?? []) as ProfileFieldDef[]).slice().sort((a, b) => (a.order ?? 0) - (b.order ?? 0)), [reg.custom_profile_fields]);
  const nameId = useId();
  const roleId = useId();
  const [name, setName] = useState(user.full_name);
  const [role, setRole] = useState(user.role);
  const [profile, setProfile] = useState<Record<number, Entered>>(() => Object.fromEntries(fields.map((f) => [f.id, enteredOf(user, f)])));
  const saving = useSave(user);

  useEffect(() => {
    if (saving.status.kind === 'saved') onClose();
  }, [saving.status, onClose]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const params: Record<string, unknown> = {};
    if (name.trim() !== user.full_name) params.full_name = name.trim();
    if (role !== user.role) params.role = role;
    const changed = fields.filter((f) => JSON.stringify(profile[f.id]) !== JSON.stringify(enteredOf(user, f)));
    if (changed.length) params.profile_data = changed.map((f) => profileEntry(f.id, f.type, profile[f.id]!));
    if (!Object.keys(params).length) return onClose();
    saving.save(
      () => call('PATCH', `/users/${user.user_id}`, params).catch((err: unknown) => Promise.reject(new Error(errorText(err)))),
      undefined,
      (u) =>
        (params.full_name === undefined || u.full_name === params.full_name) &&
        (params.role === undefined || u.role === params.role) &&
        changed.every((f) => JSON.stringify(enteredOf(u, f)) === JSON.stringify(typeof profile[f.id] === 'string' ? (profile[f.id] as string).trim() : profile[f.id])),
    );
  };

  const roles = assignableRoles(actor);
  const busy = saving.status.kind === 'saving';
  return (
    <Dialog
      title={t('admin.users.edit_title', { name: user.full_name })}
      onClose={onClose}
      className="admin-dialog"
      testId="user-edit-dialog"
      footer={
        <>
          <SaveState status={saving.status} />
          <button type="button" onClick={onClose}>{t('misc.cancel')}</button>
          <button type="submit" form={`${nameId}-form`} className="primary" disabled={busy || !name.trim()}>{t('admin.save_changes')}</button>
        </>
      }
    >
      <form id={`${nameId}-form`} onSubmit={submit} className="admin-form">
        <div className="setting-row setting-text-field">
          <div className="setting-text"><label htmlFor={nameId}>{t('admin.users.full_name')}</label></div>
          <div className="setting-control"><input id={nameId} type="text" value={name} required onChange={(e) => setName(e.target.value)} /></div>
        </div>
        <p className="setting-hint">{t('admin.users.email_is', { email: user.delivery_email ?? user.email, id: user.user_id })}</p>
        {!user.is_bot && (
          <div className="setting-row setting-select">
            <div className="setting-text"><label htmlFor={roleId}>{t('admin.users.role')}</label></div>
            <div className="setting-control">
              <select id={roleId} value={role} disabled={user.user_id === actor.userId && !actor.isOwner} onChange={(e) => setRole(Number(e.target.value))}>
                {[...new Set([...roles, user.role])].map((r) => (
                  <option key={r} value={r} disabled={!roles.includes(r)}>{roleLabel(r)}</option>
                ))}
              </select>
            </div>
          </div>
        )}
        {!user.is_bot &&
          fields.map((f) => (
            <ProfileFieldInput key={f.id} field={f} value={profile[f.id] ?? ''} users={humans} onChange={(v) => setProfile((p) => ({ ...p, [f.id]: v }))} />
          ))}
      </form>
    </Dialog>
  );
}
