/**
 * One user group: name and description, members and subgroups, permissions (group settings),
 * and deactivating or reactivating it. Each change is one request; the view follows the
 * user_group events.
 */
import { useMemo, useState } from 'react';
import type { UserGroup } from '@chat/client';
import { t } from '../../i18n';
import { SettingsGroup, SettingsSection } from '../../settings/controls';
import { useReg } from '../../state/store';
import { call } from '../api';
import { ActionStatus } from '../components/ActionStatus';
import { Combobox } from '../components/Combobox';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { SettingsForm } from '../components/SettingsForm';
import { Tabs } from '../components/Tabs';
import { useAction } from '../components/useAction';
import { useGroupMap, useGroups, useHumans, useUserMap, useViewer } from '../data';
import { GENERAL_FIELDS, GROUP_PERMISSION_FIELDS, groupRights, subgroupCandidates } from '../groupFields';
import type { GroupSettingValue } from '../groupSetting';
import { groupLabel } from '../labels';

type Tab = 'general' | 'members' | 'permissions';

export function GroupEdit({ group, onBack }: { group: UserGroup; onBack: () => void }) {
  const reg = useReg();
  const viewer = useViewer();
  const groupMap = useGroupMap();
  const rights = groupRights(group, reg.user_id, viewer.isAdmin, reg.realm_can_manage_all_groups as GroupSettingValue | undefined, groupMap);
  const [tab, setTab] = useState<Tab>('general');
  const [confirm, setConfirm] = useState(false);
  const reactivate = useAction();
  const save = (params: Record<string, unknown>) => call('PATCH', `/user_groups/${group.id}`, params);
  const live = !group.deactivated;
  return (
    <SettingsSection title={group.name} testId="admin-group-edit">
      <div className="settings-actions">
        <button type="button" onClick={onBack}>{t('admin.groups.back')}</button>
        {rights.manage && live && <button type="button" className="danger-text" onClick={() => setConfirm(true)}>{t('admin.groups.deactivate')}</button>}
        {rights.manage && !live && (
          <button type="button" onClick={() => reactivate.run(() => save({ deactivated: false }), t('admin.groups.reactivated'))}>{t('admin.groups.reactivate')}</button>
        )}
        <ActionStatus state={reactivate.state} />
      </div>
      {!live && <p className="settings-note">{t('admin.groups.is_deactivated')}</p>}
      <Tabs
        label={t('admin.groups.settings_of', { name: group.name })}
        current={tab}
        onChange={setTab}
        tabs={[
          { key: 'general', label: t('admin.groups.tab_general') },
          { key: 'members', label: t('admin.groups.tab_members') },
          { key: 'permissions', label: t('admin.groups.tab_permissions') },
        ]}
      >
        {tab === 'general' && <SettingsForm title={t('admin.groups.tab_general')} fields={GENERAL_FIELDS} source={group} canEdit={rights.manage && live} isOwner={viewer.isOwner} save={save} testId="group-general-form" />}
        {tab === 'members' && <Members group={group} canAdd={rights.addMembers && live} canRemove={rights.removeMembers && live} />}
        {tab === 'permissions' && <SettingsForm title={t('admin.groups.tab_permissions')} fields={GROUP_PERMISSION_FIELDS} source={group} canEdit={rights.manage && live} isOwner={viewer.isOwner} save={save} testId="group-permissions-form" />}
      </Tabs>
      {confirm && (
        <ConfirmDialog title={t('admin.groups.deactivate_title', { name: group.name })} confirmLabel={t('admin.groups.deactivate')} onClose={() => setConfirm(false)} onConfirm={() => call('POST', `/user_groups/${group.id}/deactivate`)}>
          <p>{t('admin.groups.deactivate_detail')}</p>
        </ConfirmDialog>
      )}
    </SettingsSection>
  );
}

function Members({ group, canAdd, canRemove }: { group: UserGroup; canAdd: boolean; canRemove: boolean }) {
  const users = useUserMap();
  const humans = useHumans();
  const groups = useGroups();
  const groupMap = useGroupMap();
  const action = useAction();
  const change = (params: Record<string, unknown>, okText: string) => action.run(() => call('POST', `/user_groups/${group.id}/members`, params), okText);
  const candidates = useMemo(() => subgroupCandidates(group, groups), [group, groups]);
  const members = group.members.map((id) => users.get(id)).filter((u) => !!u).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <>
      <SettingsGroup title={t('admin.groups.members_count', { count: members.length })}>
        {canAdd && (
          <Combobox
            label={t('admin.groups.add_member')}
            showLabel
            placeholder={t('admin.person_placeholder')}
            options={humans.filter((u) => !group.members.includes(u.user_id)).map((u) => ({ key: String(u.user_id), label: u.full_name, detail: u.delivery_email ?? u.email }))}
            onPick={(o) => change({ add: [Number(o.key)] }, t('admin.groups.member_added', { name: o.label }))}
            testId="group-add-member"
          />
        )}
        <ActionStatus state={action.state} />
        <ul className="settings-list" data-testid="group-members">
          {members.map((u) => (
            <li key={u.user_id}>
              <span className="grow">{u.full_name} <span className="setting-hint">{u.delivery_email ?? u.email}</span></span>
              {canRemove && (
                <button type="button" onClick={() => change({ delete: [u.user_id] }, t('admin.groups.member_removed', { name: u.full_name }))} aria-label={t('admin.groups.remove_member', { name: u.full_name })}>{t('admin.remove')}</button>
              )}
            </li>
          ))}
        </ul>
      </SettingsGroup>
      <SettingsGroup title={t('admin.groups.subgroups_count', { count: group.direct_subgroup_ids.length })}>
        {canAdd && (
          <Combobox
            label={t('admin.groups.add_subgroup')}
            showLabel
            placeholder={t('admin.groups.group_placeholder')}
            options={candidates.map((g) => ({ key: String(g.id), label: groupLabel(g) }))}
            onPick={(o) => change({ add_subgroups: [Number(o.key)] }, t('admin.groups.subgroup_added', { name: o.label }))}
          />
        )}
        <ul className="settings-list" data-testid="group-subgroups">
          {group.direct_subgroup_ids.map((id) => (
            <li key={id}>
              <span className="grow">{groupLabel(groupMap.get(id))}</span>
              {canRemove && (
                <button type="button" onClick={() => change({ delete_subgroups: [id] }, t('admin.groups.subgroup_removed', { name: groupLabel(groupMap.get(id)) }))} aria-label={t('admin.groups.remove_subgroup', { name: groupLabel(groupMap.get(id)) })}>{t('admin.remove')}</button>
              )}
            </li>
          ))}
        </ul>
      </SettingsGroup>
    </>
  );
}
