/** Creating a user group (POST /user_groups/create): name, description and first members (the creator to start with). */
import { useId, useState } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { useReg } from '../../state/store';
import { Dialog } from '../../ui/Dialog';
import { call } from '../api';
import { UserPicker } from '../components/UserPicker';
import { useHumans } from '../data';

export function GroupCreate({ onClose }: { onClose: () => void }) {
  const id = useId();
  const reg = useReg();
  const humans = useHumans();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [members, setMembers] = useState<number[]>([reg.user_id]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    call('POST', '/user_groups/create', { name: name.trim(), description, members }).then(onClose, (err: unknown) => {
      setBusy(false);
      setError(errorText(err));
    });
  };
  return (
    <Dialog
      title={t('admin.groups.create')}
      onClose={onClose}
      className="admin-dialog"
      testId="group-create-dialog"
      footer={
        <>
          <button type="button" onClick={onClose}>{t('misc.cancel')}</button>
          <button type="submit" form={`${id}-form`} className="primary" disabled={busy || !name.trim()}>{busy ? t('admin.working') : t('admin.groups.create_button')}</button>
        </>
      }
    >
      <form id={`${id}-form`} className="admin-form" onSubmit={submit}>
        <div className="stack">
          <label htmlFor={`${id}-name`}>{t('admin.groups.name')}</label>
          <input id={`${id}-name`} type="text" required maxLength={Number(reg.max_user_group_name_length ?? 100)} value={name} onChange={(e) => setName(e.target.value)} />
          <label htmlFor={`${id}-desc`}>{t('admin.groups.description')}</label>
          <textarea id={`${id}-desc`} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <UserPicker label={t('admin.groups.first_members')} value={members} onChange={setMembers} users={humans} />
        {error && <p className="settings-error" role="alert">{t('admin.refused', { error })}</p>}
      </form>
    </Dialog>
  );
}
