/**
 * Channels: every channel of the organization (subscribed or not, archived on request), a
 * search, creating one, and for each its settings, permissions and subscribers (ChannelEdit),
 * archiving and unarchiving after a confirmation. The list follows stream events.
 */
import { useState } from 'react';
import { t } from '../../i18n';
import { SettingsSection } from '../../settings/controls';
import type { SectionProps } from '../AdminView';
import { call } from '../api';
import { ChannelMark } from '../components/ChannelMark';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useAllChannels, useRealmPermission, useViewer, type AdminChannel } from '../data';
import { ChannelCreate } from './ChannelCreate';
import { ChannelEdit } from './ChannelEdit';

export default function Channels({ access }: SectionProps) {
  const channels = useAllChannels();
  const viewer = useViewer();
  const canCreatePublic = useRealmPermission('can_create_public_channel_group');
  const canCreatePrivate = useRealmPermission('can_create_private_channel_group');
  const canCreate = canCreatePublic || canCreatePrivate || viewer.isAdmin;
  const [query, setQuery] = useState('');
  const [showArchived, setShowArchived] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const [confirm, setConfirm] = useState<{ channel: AdminChannel; op: 'archive' | 'unarchive' } | null>(null);
  const canEdit = access === 'edit';

  const current = selected !== null ? channels.find((c) => c.stream_id === selected) : undefined;
  if (current) return <ChannelEdit channel={current} canEdit={canEdit} onBack={() => setSelected(null)} />;

  const q = query.trim().toLowerCase();
  const rows = channels.filter((c) => !!c.is_archived === showArchived && (!q || c.name.toLowerCase().includes(q) || (c.description ?? '').toLowerCase().includes(q)));
  return (
    <SettingsSection title={t('admin.section.channels')} testId="admin-channels">
      <div className="settings-actions">
        <label htmlFor="admin-channel-search" className="visually-hidden">{t('admin.channel.search')}</label>
        <input id="admin-channel-search" type="search" placeholder={t('admin.channel.search')} value={query} onChange={(e) => setQuery(e.target.value)} />
        <label className="checkbox-row">
          <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} />
          {t('admin.channel.show_archived')}
        </label>
        {canCreate && <button type="button" className="primary" onClick={() => setCreating(true)}>{t('admin.channel.create')}</button>}
      </div>
      <div className="settings-table-wrap">
        <table className="settings-table" data-testid="channels-table">
          <caption className="visually-hidden">{t('admin.section.channels')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin.channel.name_description')}</th>
              <th scope="col">{t('admin.channel.subscribers')}</th>
              <th scope="col"><span className="visually-hidden">{t('admin.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.stream_id} data-channel-id={c.stream_id}>
                <td>
                  <ChannelMark channel={c} />
                  <span className="visually-hidden">{t(c.invite_only ? 'admin.channel.private' : c.is_web_public ? 'admin.channel.web_public' : 'admin.channel.public')}: </span>
                  {c.name}
                  {c.description && <div className="admin-sub admin-description">{c.description}</div>}
                </td>
                <td>{Array.isArray(c.subscribers) ? c.subscribers.length : typeof c.subscriber_count === 'number' ? c.subscriber_count : '—'}</td>
                <td className="admin-row-actions">
                  <button type="button" onClick={() => setSelected(c.stream_id)} aria-label={t(canEdit ? 'admin.channel.edit_named' : 'admin.channel.view_named', { name: c.name })}>{canEdit ? t('admin.edit') : t('admin.view')}</button>
                  {canEdit && (
                    <button type="button" className={c.is_archived ? undefined : 'danger-text'} onClick={() => setConfirm({ channel: c, op: c.is_archived ? 'unarchive' : 'archive' })} aria-label={t(c.is_archived ? 'admin.channel.unarchive_named' : 'admin.channel.archive_named', { name: c.name })}>
                      {t(c.is_archived ? 'admin.channel.unarchive' : 'admin.channel.archive')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!rows.length && <p className="settings-description">{t('admin.channel.none')}</p>}
      {creating && <ChannelCreate onClose={() => setCreating(false)} onCreated={() => setCreating(false)} />}
      {confirm && (
        <ConfirmDialog
          title={t(confirm.op === 'archive' ? 'admin.channel.archive_title' : 'admin.channel.unarchive_title', { name: confirm.channel.name })}
          confirmLabel={t(confirm.op === 'archive' ? 'admin.channel.archive' : 'admin.channel.unarchive')}
          danger={confirm.op === 'archive'}
          onClose={() => setConfirm(null)}
          onConfirm={() => (confirm.op === 'archive' ? call('DELETE', `/streams/${confirm.channel.stream_id}`) : call('PATCH', `/streams/${confirm.channel.stream_id}`, { is_archived: false }))}
        >
          <p>{t(confirm.op === 'archive' ? 'admin.channel.archive_detail' : 'admin.channel.unarchive_detail')}</p>
        </ConfirmDialog>
      )}
    </SettingsSection>
  );
}
