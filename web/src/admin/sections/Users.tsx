/**
 * Users: the active people, the bots (with their type and owner) and the deactivated accounts,
 * with a search; a name opens the person's card. Administrators change people's roles, names
 * and profile fields and bots' names, owners and pictures (the edit dialogs), deactivate and
 * reactivate, each after a confirmation. The tables follow realm_user events.
 */
import { useCallback, useMemo, useState } from 'react';
import type { User } from '@chat/client';
import { t } from '../../i18n';
import { UserName } from '../../ui/UserName';
import { SettingsSection } from '../../settings/controls';
import { useAppState, useReg } from '../../state/store';
import type { SectionProps } from '../AdminView';
import { call } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { Tabs } from '../components/Tabs';
import { botTypeKey } from '../bots';
import { roleLabel } from '../labels';
import { canChangeRole, canDeactivate, filterUsers, PAGE, type Actor } from '../people';
import { BotEditDialog } from './BotEditDialog';
import { UserEditDialog } from './UserEditDialog';

type Tab = 'active' | 'bots' | 'deactivated';

export default function Users({ access }: SectionProps) {
  const reg = useReg();
  const users = useAppState((s) => s.users);
  const [tab, setTab] = useState<Tab>('active');
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<{ user: User; op: 'deactivate' | 'reactivate' } | null>(null);
  const actor: Actor = { userId: reg.user_id, isOwner: reg.is_owner, isAdmin: reg.is_admin && access === 'edit' };

  const crossRealm = useMemo(() => new Set((reg.cross_realm_bots ?? []).map((u) => u.user_id)), [reg.cross_realm_bots]);
  const lists = useMemo(() => {
    const all = [...users.values()].filter((u) => !crossRealm.has(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name));
    return {
      active: all.filter((u) => u.is_active && !u.is_bot),
      bots: all.filter((u) => u.is_bot),
      deactivated: all.filter((u) => !u.is_active && !u.is_bot),
    };
  }, [users, crossRealm]);
  const rows = filterUsers(lists[tab], query);
  const editUser = editing !== null ? users.get(editing) : undefined;
  // Stable: the dialogs close themselves from an effect that depends on it.
  const closeEdit = useCallback(() => setEditing(null), []);

  return (
    <SettingsSection title={t('admin.section.users')} testId="admin-users">
      <Tabs
        label={t('admin.users.lists')}
        current={tab}
        onChange={setTab}
        tabs={[
          { key: 'active', label: t('admin.users.active', { count: lists.active.length }) },
          { key: 'bots', label: t('admin.users.bots', { count: lists.bots.length }) },
          { key: 'deactivated', label: t('admin.users.deactivated', { count: lists.deactivated.length }) },
        ]}
      >
        <div className="settings-actions">
          <label htmlFor="admin-user-search" className="visually-hidden">{t('admin.users.search')}</label>
          <input id="admin-user-search" type="search" placeholder={t('admin.users.search')} value={query} onChange={(e) => setQuery(e.target.value)} />
        </div>
        <div className="settings-table-wrap">
          <table className="settings-table" data-testid={`admin-users-${tab}`}>
            <caption className="visually-hidden">{t(tab === 'active' ? 'admin.users.active_caption' : tab === 'bots' ? 'admin.users.bots_caption' : 'admin.users.deactivated_caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t(tab === 'bots' ? 'admin.bots.name_email_type' : 'admin.users.name_email')}</th>
                <th scope="col">{tab === 'bots' ? t('admin.users.owner') : t('admin.users.role')}</th>
                {actor.isAdmin && <th scope="col"><span className="visually-hidden">{t('admin.actions')}</span></th>}
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, PAGE).map((u) => (
                <tr key={u.user_id} data-user-id={u.user_id}>
                  <td>
                    <UserName userId={u.user_id} fallback={u.full_name} />
                    {u.user_id === reg.user_id && <span className="admin-tag"> ({t('misc.you')})</span>}
                    <div className="admin-sub admin-email">{u.delivery_email ?? u.email}</div>
                    {u.is_bot && <div className="admin-sub" data-testid="bot-type">{t(botTypeKey(u.bot_type))}</div>}
                  </td>
                  <td>{tab !== 'bots' ? roleLabel(u.role) : u.bot_owner_id != null && users.has(u.bot_owner_id) ? <UserName userId={u.bot_owner_id} /> : t('admin.bots.no_owner')}</td>
                  {actor.isAdmin && (
                    <td className="admin-row-actions">
                      {u.is_active && (u.is_bot || canChangeRole(actor, u)) && (
                        <button type="button" onClick={() => setEditing(u.user_id)} aria-label={t('admin.users.edit_named', { name: u.full_name })}>{t('admin.edit')}</button>
                      )}
                      {u.is_active && canDeactivate(actor, u) && (
                        <button type="button" className="danger-text" onClick={() => setConfirming({ user: u, op: 'deactivate' })} aria-label={t('admin.users.deactivate_named', { name: u.full_name })}>{t('admin.users.deactivate')}</button>
                      )}
                      {!u.is_active && (
                        <button type="button" onClick={() => setConfirming({ user: u, op: 'reactivate' })} aria-label={t('admin.users.reactivate_named', { name: u.full_name })}>{t('admin.users.reactivate')}</button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {!rows.length && <p className="settings-description">{t('admin.users.none')}</p>}
        {rows.length > PAGE && <p className="settings-description">{t('admin.users.more', { shown: PAGE, total: rows.length })}</p>}
      </Tabs>
      {editUser && (editUser.is_bot ? <BotEditDialog bot={editUser} onClose={closeEdit} /> : <UserEditDialog user={editUser} actor={actor} onClose={closeEdit} />)}
      {confirming && (
        <ConfirmDialog
          title={t(confirming.op === 'deactivate' ? 'admin.users.deactivate_title' : 'admin.users.reactivate_title', { name: confirming.user.full_name })}
          confirmLabel={t(confirming.op === 'deactivate' ? 'admin.users.deactivate' : 'admin.users.reactivate')}
          danger={confirming.op === 'deactivate'}
          onClose={() => setConfirming(null)}
          onConfirm={() =>
            confirming.op === 'deactivate'
              ? call('DELETE', `/${confirming.user.is_bot ? 'bots' : 'users'}/${confirming.user.user_id}`)
              : call('POST', `/users/${confirming.user.user_id}/reactivate`)
          }
        >
          <p>
            {confirming.op === 'deactivate'
              ? t(confirming.user.is_bot ? 'admin.users.deactivate_bot_detail' : 'admin.users.deactivate_detail', { name: confirming.user.full_name, email: confirming.user.delivery_email ?? confirming.user.email })
              : t('admin.users.reactivate_detail', { name: confirming.user.full_name })}
          </p>
        </ConfirmDialog>
      )}
    </SettingsSection>
  );
}
