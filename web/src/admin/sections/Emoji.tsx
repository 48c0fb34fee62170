/**
 * Custom emoji (register's realm_emoji, kept by realm_emoji events): adding one (a name and an
 * image, POST /realm/emoji/{name}) for those the realm allows, and the list with who added
 * each; administrators and the one who added it may deactivate it, after a confirmation.
 */
import { useId, useRef, useState } from 'react';
import type { CustomEmoji } from '@chat/client';
import { t } from '../../i18n';
import { SettingsGroup, SettingsSection } from '../../settings/controls';
import { useReg } from '../../state/store';
import type { SectionProps } from '../AdminView';
import { call, upload } from '../api';
import { ActionStatus } from '../components/ActionStatus';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useAction } from '../components/useAction';
import { useRealmPermission, useUserMap, useViewer } from '../data';

/** The family's rule for emoji names: lowercase letters, digits, spaces, dashes and underscores. */
export function emojiNameProblem(name: string): 'empty' | 'chars' | null {
  const n = name.trim();
  if (!n) return 'empty';
  return /^[a-z0-9_\- ]+$/.test(n) && /[a-z0-9]$/.test(n) ? null : 'chars';
}

export default function Emoji(_: SectionProps) {
  const reg = useReg();
  const viewer = useViewer();
  const users = useUserMap();
  const canAdd = useRealmPermission('can_add_custom_emoji_group') || viewer.isAdmin;
  const [query, setQuery] = useState('');
  const [removing, setRemoving] = useState<CustomEmoji | null>(null);
  const q = query.trim().toLowerCase();
  const list = Object.values(reg.realm_emoji ?? {})
    .filter((e) => !e.deactivated && (!q || e.name.includes(q)))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <SettingsSection title={t('admin.section.emoji')} testId="admin-emoji">
      {canAdd && <AddEmoji />}
      <SettingsGroup title={t('admin.emoji.list')}>
        <label htmlFor="admin-emoji-search" className="visually-hidden">{t('admin.emoji.search')}</label>
        <input id="admin-emoji-search" type="search" placeholder={t('admin.emoji.search')} value={query} onChange={(e) => setQuery(e.target.value)} />
        <div className="settings-table-wrap">
          <table className="settings-table" data-testid="emoji-table">
            <caption className="visually-hidden">{t('admin.emoji.list')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin.emoji.name')}</th>
                <th scope="col">{t('admin.emoji.image')}</th>
                <th scope="col">{t('admin.emoji.author')}</th>
                <th scope="col"><span className="visually-hidden">{t('admin.actions')}</span></th>
              </tr>
            </thead>
            <tbody>
              {list.map((e) => (
                <tr key={e.id}>
                  <td>:{e.name}:</td>
                  <td><img src={e.source_url} alt={t('admin.emoji.alt', { name: e.name })} width={24} height={24} loading="lazy" /></td>
                  <td>{e.author_id !== null ? (users.get(e.author_id)?.full_name ?? '—') : '—'}</td>
                  <td className="admin-row-actions">
                    {(viewer.isAdmin || (e.author_id === reg.user_id && canAdd)) && (
                      <button type="button" className="danger-text" onClick={() => setRemoving(e)} aria-label={t('admin.emoji.remove_named', { name: e.name })}>{t('admin.emoji.remove')}</button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {!list.length && <p className="settings-description">{t('admin.emoji.none')}</p>}
      </SettingsGroup>
      {removing && (
        <ConfirmDialog title={t('admin.emoji.remove_title', { name: removing.name })} confirmLabel={t('admin.emoji.remove')} onClose={() => setRemoving(null)} onConfirm={() => call('DELETE', `/realm/emoji/${encodeURIComponent(removing.name)}`)}>
          <p>{t('admin.emoji.remove_detail')}</p>
        </ConfirmDialog>
      )}
    </SettingsSection>
  );
}

function AddEmoji() {
  const id = useId();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const action = useAction();
  const problem = name ? emojiNameProblem(name) : null;
  return (
    <SettingsGroup title={t('admin.emoji.add')}>
      <form
        className="admin-inline-form"
        data-testid="emoji-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!file || emojiNameProblem(name)) return;
          const n = name.trim();
          action.run(() => upload(`/realm/emoji/${encodeURIComponent(n)}`, file), t('admin.emoji.added'), () => {
            setName('');
            setFile(null);
            if (fileInput.current) fileInput.current.value = '';
          });
        }}
      >
        <label htmlFor={`${id}-name`}>{t('admin.emoji.name')}</label>
        <input id={`${id}-name`} type="text" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!problem} aria-describedby={problem ? `${id}-problem` : undefined} />
        {problem && <span id={`${id}-problem`} className="settings-error">{t('admin.emoji.bad_name')}</span>}
        <label htmlFor={`${id}-file`}>{t('admin.emoji.file')}</label>
        <input id={`${id}-file`} ref={fileInput} type="file" accept="image/png,image/gif,image/jpeg,image/webp" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        <button type="submit" className="primary" disabled={!file || !name.trim() || !!problem || action.state.busy}>{t('admin.emoji.add_button')}</button>
        <ActionStatus state={action.state} />
      </form>
    </SettingsGroup>
  );
}
