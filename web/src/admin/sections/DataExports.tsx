/**
 * Data exports: starting one (POST /export/realm, public data or with members' consent), and
 * the list (GET /export/realm, fetched on opening and again on realm_export events) with each
 * export's state, its download link once ready, and deleting it after a confirmation.
 */
import { useId, useState } from 'react';
import { t } from '../../i18n';
import { SettingsGroup, SettingsSection } from '../../settings/controls';
import type { SectionProps } from '../AdminView';
import { call } from '../api';
import { ActionStatus } from '../components/ActionStatus';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useAction } from '../components/useAction';
import { useUserMap } from '../data';
import { useFetchedList } from '../useFetchedList';

export interface RealmExport {
  id: number;
  export_time: number;
  acting_user_id: number;
  export_url: string | null;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
  pending: boolean;
  export_type?: number;
}

export type ExportState = 'pending' | 'failed' | 'deleted' | 'ready';

export function exportState(e: RealmExport): ExportState {
  if (e.deleted_timestamp !== null) return 'deleted';
  if (e.failed_timestamp !== null) return 'failed';
  if (e.pending || !e.export_url) return 'pending';
  return 'ready';
}

const loadExports = () => call<{ exports: RealmExport[] }>('GET', '/export/realm').then((r) => [...r.exports].sort((a, b) => b.export_time - a.export_time));

export default function DataExports(_: SectionProps) {
  const id = useId();
  const users = useUserMap();
  const list = useFetchedList(loadExports, { events: ['realm_export'] });
  const [type, setType] = useState(1);
  const start = useAction();
  const [deleting, setDeleting] = useState<RealmExport | null>(null);
  return (
    <SettingsSection title={t('admin.section.exports')} description={t('admin.exports.about')} testId="admin-exports">
      <SettingsGroup title={t('admin.exports.start')}>
        <form
          className="admin-inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            start.run(() => call('POST', '/export/realm', { export_type: type }), t('admin.exports.started'));
          }}
        >
          <label htmlFor={`${id}-type`}>{t('admin.exports.type')}</label>
          <select id={`${id}-type`} value={type} onChange={(e) => setType(Number(e.target.value))}>
            <option value={1}>{t('admin.exports.public')}</option>
            <option value={2}>{t('admin.exports.standard')}</option>
          </select>
          <button type="submit" className="primary" disabled={start.state.busy}>{t('admin.exports.start_button')}</button>
          <ActionStatus state={start.state} />
        </form>
      </SettingsGroup>
      <SettingsGroup title={t('admin.exports.list')}>
        {list.error && <p className="settings-error" role="alert">{t('admin.load_failed', { error: list.error })} <button type="button" onClick={list.reload}>{t('admin.retry')}</button></p>}
        {list.loading && !list.data && <p role="status">{t('settings.loading')}</p>}
        {list.data && !list.data.length && <p className="settings-description">{t('admin.exports.none')}</p>}
        {list.data && list.data.length > 0 && (
          <div className="settings-table-wrap">
            <table className="settings-table" data-testid="exports-table">
              <caption className="visually-hidden">{t('admin.exports.list')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('admin.exports.time_kind')}</th>
                  <th scope="col">{t('admin.exports.requested_by')}</th>
                  <th scope="col">{t('admin.exports.state')}</th>
                  <th scope="col"><span className="visually-hidden">{t('admin.actions')}</span></th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((e) => {
                  const state = exportState(e);
                  return (
                    <tr key={e.id}>
                      <td>
                        {new Date(e.export_time * 1000).toLocaleString()}
                        <div className="admin-sub">{t(e.export_type === 2 ? 'admin.exports.standard' : 'admin.exports.public')}</div>
                      </td>
                      <td>{users.get(e.acting_user_id)?.full_name ?? '—'}</td>
                      <td>
                        {state === 'ready' ? <a href={e.export_url!} download>{t('admin.exports.download')}</a> : t(`admin.exports.state_${state}`)}
                      </td>
                      <td className="admin-row-actions">
                        {state !== 'deleted' && state !== 'pending' && (
                          <button type="button" className="danger-text" onClick={() => setDeleting(e)} aria-label={t('admin.exports.delete_named', { time: new Date(e.export_time * 1000).toLocaleString() })}>{t('admin.delete')}</button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </SettingsGroup>
      {deleting && (
        <ConfirmDialog title={t('admin.exports.delete_title')} confirmLabel={t('admin.delete')} onClose={() => setDeleting(null)} onConfirm={() => call('DELETE', `/export/realm/${deleting.id}`)}>
          <p>{t('admin.exports.delete_detail')}</p>
        </ConfirmDialog>
      )}
    </SettingsSection>
  );
}
