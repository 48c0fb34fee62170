/**
 * A channel's subscribers: the list (from the snapshot when it has them, else fetched with GET
 * /streams/{id}/members), adding people and removing them. Adding and removing wait for the
 * server; the snapshot's list follows the subscription events, a fetched one is fetched again.
 */
import { useCallback, useState } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { SettingsGroup } from '../../settings/controls';
import { call } from '../api';
import { Combobox } from '../components/Combobox';
import { useHumans, useUserMap, type AdminChannel } from '../data';
import { useFetchedList } from '../useFetchedList';

export function ChannelSubscribers({ channel, canEdit }: { channel: AdminChannel; canEdit: boolean }) {
  const users = useUserMap();
  const humans = useHumans();
  const fromStore = Array.isArray(channel.subscribers) && !Array.isArray(channel.partial_subscribers) ? channel.subscribers : null;
  const inStore = fromStore !== null;
  // Only fetched when the snapshot does not list them.
  const load = useCallback(
    () => (inStore ? Promise.resolve(null) : call<{ subscribers: number[] }>('GET', `/streams/${channel.stream_id}/members`).then((r) => r.subscribers)),
    [channel.stream_id, inStore],
  );
  const fetched = useFetchedList(load);
  const ids = fromStore ?? fetched.data ?? [];
  const [status, setStatus] = useState<{ ok?: string; error?: string }>({});
  const [query, setQuery] = useState('');

  const change = (method: 'POST' | 'DELETE', userId: number) => {
    const name = users.get(userId)?.full_name ?? String(userId);
    setStatus({});
    const params = method === 'POST' ? { subscriptions: [{ name: channel.name }], principals: [userId] } : { subscriptions: [channel.name], principals: [userId] };
    call(method, '/users/me/subscriptions', params).then(
      () => {
        setStatus({ ok: t(method === 'POST' ? 'admin.subs.added' : 'admin.subs.removed', { name }) });
        if (!fromStore) fetched.reload();
      },
      (err: unknown) => setStatus({ error: errorText(err) }),
    );
  };

  const q = query.trim().toLowerCase();
  const rows = ids
    .map((id) => users.get(id))
    .filter((u) => u && (!q || u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q)))
    .sort((a, b) => a!.full_name.localeCompare(b!.full_name));
  return (
    <SettingsGroup title={t('admin.subs.title', { count: ids.length })}>
      {canEdit && (
        <div className="settings-actions">
          <Combobox
            label={t('admin.subs.add')}
            showLabel
            placeholder={t('admin.person_placeholder')}
            options={humans.filter((u) => !ids.includes(u.user_id)).map((u) => ({ key: String(u.user_id), label: u.full_name, detail: u.delivery_email ?? u.email }))}
            onPick={(o) => change('POST', Number(o.key))}
            testId="subs-add"
          />
        </div>
      )}
      <div className="settings-actions" aria-live="polite">
        {status.ok && <span className="save-saved" role="status">{status.ok}</span>}
        {status.error && <span className="settings-error" role="alert">{t('admin.refused', { error: status.error })}</span>}
        {fetched.error && !fromStore && <span className="settings-error" role="alert">{t('admin.load_failed', { error: fetched.error })}</span>}
      </div>
      <label htmlFor="admin-subs-filter" className="visually-hidden">{t('admin.subs.filter')}</label>
      <input id="admin-subs-filter" type="search" placeholder={t('admin.subs.filter')} value={query} onChange={(e) => setQuery(e.target.value)} />
      <ul className="settings-list" data-testid="subs-list">
        {rows.map((u) => (
          <li key={u!.user_id}>
            <span className="grow">
              {u!.full_name} <span className="setting-hint">{u!.delivery_email ?? u!.email}</span>
            </span>
            {canEdit && <button type="button" onClick={() => change('DELETE', u!.user_id)} aria-label={t('admin.subs.remove_named', { name: u!.full_name })}>{t('admin.subs.remove')}</button>}
          </li>
        ))}
      </ul>
    </SettingsGroup>
  );
}
