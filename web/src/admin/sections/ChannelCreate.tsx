/**
 * Creating a channel (POST /users/me/subscriptions with a new name): name, description,
 * privacy, history, folder, first subscribers (the creator to start with), whether new
 * members join it, and whether to announce it. Closes when the server has created it.
 */
import { useId, useState } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { useAppState, useReg } from '../../state/store';
import { Dialog } from '../../ui/Dialog';
import { call } from '../api';
import { createChannelParams, type NewChannel, type Privacy } from '../channelFields';
import { UserPicker } from '../components/UserPicker';
import { useHumans, useRealmPermission, useViewer } from '../data';

export interface ChannelFolder {
  id: number;
  name: string;
  description?: string;
  is_archived?: boolean;
  order?: number;
}

export function useFolders(): ChannelFolder[] {
  return (useAppState((s) => s.reg?.channel_folders) as ChannelFolder[] | undefined) ?? [];
}

export function ChannelCreate({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const id = useId();
  const reg = useReg();
  const viewer = useViewer();
  const humans = useHumans();
  const folders = useFolders().filter((f) => !f.is_archived);
  const canPublic = useRealmPermission('can_create_public_channel_group') || viewer.isAdmin;
  const canPrivate = useRealmPermission('can_create_private_channel_group') || viewer.isAdmin;
  const canWebPublic = useRealmPermission('can_create_web_public_channel_group') && reg.realm_enable_spectator_access === true;
  const [form, setForm] = useState<NewChannel>({
    name: '',
    description: '',
    privacy: canPublic ? 'public' : 'private',
    historyPublic: true,
    announce: true,
    subscribers: [reg.user_id],
    folderId: null,
    isDefault: false,
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<NewChannel>) => setForm((f) => ({ ...f, ...patch }));

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!form.name.trim()) return setError(t('admin.invalid.required'));
    setBusy(true);
    setError(null);
    call('POST', '/users/me/subscriptions', createChannelParams(form)).then(onCreated, (err: unknown) => {
      setBusy(false);
      setError(errorText(err));
    });
  };

  const privacies: Array<{ value: Privacy; label: string; hint: string; ok: boolean }> = [
    { value: 'public', label: t('admin.channel.public'), hint: t('admin.channel.public_hint'), ok: canPublic },
    { value: 'private', label: t('admin.channel.private'), hint: t('admin.channel.private_hint'), ok: canPrivate },
    { value: 'web_public', label: t('admin.channel.web_public'), hint: t('admin.channel.web_public_hint'), ok: canWebPublic },
  ];
  return (
    <Dialog
      title={t('admin.channel.create')}
      onClose={onClose}
      className="admin-dialog"
      testId="channel-create-dialog"
      footer={
        <>
          <button type="button" onClick={onClose}>{t('misc.cancel')}</button>
          <button type="submit" form={`${id}-form`} className="primary" disabled={busy}>{busy ? t('admin.working') : t('admin.channel.create_button')}</button>
        </>
      }
    >
      <form id={`${id}-form`} className="admin-form" onSubmit={submit}>
        <div className="stack">
          <label htmlFor={`${id}-name`}>{t('admin.channel.name')}</label>
          <input id={`${id}-name`} type="text" required maxLength={Number(reg.max_stream_name_length ?? 60)} value={form.name} onChange={(e) => set({ name: e.target.value })} />
          <label htmlFor={`${id}-desc`}>{t('admin.channel.description')}</label>
          <textarea id={`${id}-desc`} rows={2} maxLength={Number(reg.max_stream_description_length ?? 1024)} value={form.description} onChange={(e) => set({ description: e.target.value })} />
        </div>
        <fieldset>
          <legend>{t('admin.channel.privacy')}</legend>
          {privacies.filter((p) => p.ok).map((p) => (
            <label key={p.value} className="radio-row">
              <input type="radio" name={`${id}-privacy`} value={p.value} checked={form.privacy === p.value} onChange={() => set({ privacy: p.value })} />
              <span>
                {p.label}
                <span className="setting-hint">{p.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {form.privacy === 'private' && (
          <label className="checkbox-row">
            <input type="checkbox" checked={form.historyPublic} onChange={(e) => set({ historyPublic: e.target.checked })} />
            {t('admin.channel.history_public')}
          </label>
        )}
        {folders.length > 0 && (
          <div className="stack">
            <label htmlFor={`${id}-folder`}>{t('admin.channel.folder')}</label>
            <select id={`${id}-folder`} value={form.folderId ?? -1} onChange={(e) => set({ folderId: Number(e.target.value) === -1 ? null : Number(e.target.value) })}>
              <option value={-1}>{t('admin.channel.no_folder')}</option>
              {folders.map((f) => (
                <option key={f.id} value={f.id}>{f.name}</option>
              ))}
            </select>
          </div>
        )}
        <UserPicker label={t('admin.channel.first_subscribers')} value={form.subscribers} onChange={(subscribers) => set({ subscribers })} users={humans} />
        {viewer.isAdmin && (
          <label className="checkbox-row">
            <input type="checkbox" checked={form.isDefault} onChange={(e) => set({ isDefault: e.target.checked })} />
            {t('admin.channel.make_default')}
          </label>
        )}
        <label className="checkbox-row">
          <input type="checkbox" checked={form.announce} onChange={(e) => set({ announce: e.target.checked })} />
          {t('admin.channel.announce')}
        </label>
        {error && <p className="settings-error" role="alert">{t('admin.refused', { error })}</p>}
      </form>
    </Dialog>
  );
}
