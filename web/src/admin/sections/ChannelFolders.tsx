/**
 * Channel folders (register's channel_folders, kept by channel_folder events): creating one,
 * renaming and describing it, archiving and unarchiving, and their order.
 */
import { useId, useState } from 'react';
import { t } from '../../i18n';
import { SettingsGroup, SettingsSection } from '../../settings/controls';
import type { SectionProps } from '../AdminView';
import { call } from '../api';
import { ActionStatus } from '../components/ActionStatus';
import { useAction } from '../components/useAction';
import { moved } from '../reorder';
import { useFolders, type ChannelFolder } from './ChannelCreate';

export default function ChannelFolders({ access }: SectionProps) {
  const folders = [...useFolders()].sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.id - b.id);
  const canEdit = access === 'edit';
  const order = useAction();
  const active = folders.filter((f) => !f.is_archived);
  const archived = folders.filter((f) => f.is_archived);
  const move = (id: number, delta: -1 | 1) => order.run(() => call('PATCH', '/channel_folders', { order: moved(folders.map((f) => f.id), id, delta) }), t('admin.reordered'));
  return (
    <SettingsSection title={t('admin.section.folders')} description={t('admin.folders.about')} testId="admin-channel-folders">
      {canEdit && <NewFolder />}
      <SettingsGroup title={t('admin.folders.list')}>
        <ActionStatus state={order.state} />
        <ul className="settings-list" data-testid="folders-list">
          {active.map((f, i) => (
            <FolderRow key={f.id} folder={f} canEdit={canEdit} first={i === 0} last={i === active.length - 1} onMove={move} />
          ))}
        </ul>
        {!active.length && <p className="settings-description">{t('admin.folders.none')}</p>}
      </SettingsGroup>
      {archived.length > 0 && (
        <SettingsGroup title={t('admin.folders.archived')}>
          <ul className="settings-list">
            {archived.map((f) => (
              <FolderRow key={f.id} folder={f} canEdit={canEdit} first last onMove={move} />
            ))}
          </ul>
        </SettingsGroup>
      )}
    </SettingsSection>
  );
}

function NewFolder() {
  const id = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const action = useAction();
  return (
    <SettingsGroup title={t('admin.folders.create')}>
      <form
        className="admin-inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          action.run(() => call('POST', '/channel_folders/create', { name: name.trim(), description }), t('admin.folders.created', { name: name.trim() }), () => {
            setName('');
            setDescription('');
          });
        }}
      >
        <label htmlFor={`${id}-name`}>{t('admin.folders.name')}</label>
        <input id={`${id}-name`} type="text" required value={name} onChange={(e) => setName(e.target.value)} />
        <label htmlFor={`${id}-desc`}>{t('admin.folders.description')}</label>
        <input id={`${id}-desc`} type="text" value={description} onChange={(e) => setDescription(e.target.value)} />
        <button type="submit" className="primary" disabled={!name.trim() || action.state.busy}>{t('admin.folders.create_button')}</button>
        <ActionStatus state={action.state} />
      </form>
    </SettingsGroup>
  );
}

function FolderRow({ folder, canEdit, first, last, onMove }: { folder: ChannelFolder; canEdit: boolean; first: boolean; last: boolean; onMove: (id: number, delta: -1 | 1) => void }) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(folder.name);
  const [description, setDescription] = useState(folder.description ?? '');
  const action = useAction();
  if (editing) {
    return (
      <li>
        <form
          className="admin-inline-form grow"
          onSubmit={(e) => {
            e.preventDefault();
            action.run(() => call('PATCH', `/channel_folders/${folder.id}`, { name: name.trim(), description }), t('admin.saved'), () => setEditing(false));
          }}
        >
          <label htmlFor={`${id}-name`}>{t('admin.folders.name')}</label>
          <input id={`${id}-name`} type="text" required value={name} onChange={(e) => setName(e.target.value)} />
          <label htmlFor={`${id}-desc`}>{t('admin.folders.description')}</label>
          <input id={`${id}-desc`} type="text" value={description} onChange={(e) => setDescription(e.target.value)} />
          <button type="submit" className="primary" disabled={!name.trim() || action.state.busy}>{t('misc.save')}</button>
          <button type="button" onClick={() => setEditing(false)}>{t('misc.cancel')}</button>
          <ActionStatus state={action.state} />
        </form>
      </li>
    );
  }
  return (
    <li>
      <span className="grow">
        <strong>{folder.name}</strong>
        {folder.description && <span className="setting-hint"> — {folder.description}</span>}
      </span>
      {canEdit && (
        <>
          {!folder.is_archived && (
            <>
              <button type="button" disabled={first} onClick={() => onMove(folder.id, -1)} aria-label={t('admin.move_up_named', { name: folder.name })}>↑</button>
              <button type="button" disabled={last} onClick={() => onMove(folder.id, 1)} aria-label={t('admin.move_down_named', { name: folder.name })}>↓</button>
              <button type="button" onClick={() => { setName(folder.name); setDescription(folder.description ?? ''); setEditing(true); }} aria-label={t('admin.edit_named', { name: folder.name })}>{t('admin.edit')}</button>
            </>
          )}
          <button
            type="button"
            onClick={() => action.run(() => call('PATCH', `/channel_folders/${folder.id}`, { is_archived: !folder.is_archived }), t(folder.is_archived ? 'admin.folders.unarchived' : 'admin.folders.archived_done', { name: folder.name }))}
            aria-label={t(folder.is_archived ? 'admin.folders.unarchive_named' : 'admin.folders.archive_named', { name: folder.name })}
          >
            {t(folder.is_archived ? 'admin.channel.unarchive' : 'admin.channel.archive')}
          </button>
          <ActionStatus state={action.state} />
        </>
      )}
    </li>
  );
}
