/**
 * User groups (register's realm_user_groups, kept by user_group events): the list with a
 * search and the deactivated ones on request, creating a group, and each group's settings,
 * members, subgroups and permissions (GroupEdit).
 */
import { useState } from 'react';
import { t } from '../../i18n';
import { SettingsSection } from '../../settings/controls';
import type { SectionProps } from '../AdminView';
import { useGroups, useRealmPermission, useViewer } from '../data';
import { GroupCreate } from './GroupCreate';
import { GroupEdit } from './GroupEdit';

export default function UserGroups(_: SectionProps) {
  const groups = useGroups();
  const viewer = useViewer();
  const canCreate = useRealmPermission('can_create_groups') || viewer.isAdmin;
  const [query, setQuery] = useState('');
  const [showDeactivated, setShowDeactivated] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);

  const current = selected !== null ? groups.find((g) => g.id === selected) : undefined;
  if (current) return <GroupEdit group={current} onBack={() => setSelected(null)} />;

  const q = query.trim().toLowerCase();
  const rows = groups
    .filter((g) => !g.is_system_group && !!g.deactivated === showDeactivated && (!q || g.name.toLowerCase().includes(q) || g.description.toLowerCase().includes(q)))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <SettingsSection title={t('admin.section.groups')} testId="admin-groups">
      <div className="settings-actions">
        <label htmlFor="admin-group-search" className="visually-hidden">{t('admin.groups.search')}</label>
        <input id="admin-group-search" type="search" placeholder={t('admin.groups.search')} value={query} onChange={(e) => setQuery(e.target.value)} />
        <label className="checkbox-row">
          <input type="checkbox" checked={showDeactivated} onChange={(e) => setShowDeactivated(e.target.checked)} />
          {t('admin.groups.show_deactivated')}
        </label>
        {canCreate && <button type="button" className="primary" onClick={() => setCreating(true)}>{t('admin.groups.create')}</button>}
      </div>
      <div className="settings-table-wrap">
        <table className="settings-table" data-testid="groups-table">
          <caption className="visually-hidden">{t('admin.section.groups')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin.groups.name_description')}</th>
              <th scope="col">{t('admin.groups.members')}</th>
              <th scope="col"><span className="visually-hidden">{t('admin.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {rows.map((g) => (
              <tr key={g.id} data-group-id={g.id}>
                <td>
                  {g.name}
                  {g.description && <div className="admin-sub admin-description">{g.description}</div>}
                </td>
                <td>{t('admin.groups.count', { members: g.members.length, subgroups: g.direct_subgroup_ids.length })}</td>
                <td className="admin-row-actions">
                  <button type="button" onClick={() => setSelected(g.id)} aria-label={t('admin.groups.open_named', { name: g.name })}>{t('admin.open')}</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!rows.length && <p className="settings-description">{t('admin.groups.none')}</p>}
      {creating && <GroupCreate onClose={() => setCreating(false)} />}
    </SettingsSection>
  );
}
