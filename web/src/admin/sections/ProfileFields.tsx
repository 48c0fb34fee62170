/**
 * Custom profile fields (register's custom_profile_fields, kept by custom_profile_fields
 * events): adding, editing, deleting after a confirmation, and their order.
 */
import { useState } from 'react';
import { t } from '../../i18n';
import { SettingsGroup, SettingsSection } from '../../settings/controls';
import { useReg } from '../../state/store';
import type { SectionProps } from '../AdminView';
import { call } from '../api';
import { ActionStatus } from '../components/ActionStatus';
import { ConfirmDialog } from '../components/ConfirmDialog';
import type { ProfileFieldDef } from '../components/ProfileFieldInput';
import { useAction } from '../components/useAction';
import { createFieldParams, EMPTY_FIELD, FIELD_TYPE_LABELS, formOf, updateFieldParams } from '../profileFieldForm';
import { moved } from '../reorder';
import { ProfileFieldEditor } from './ProfileFieldEditor';

export default function ProfileFields({ access }: SectionProps) {
  const reg = useReg();
  const fields = ((reg.custom_profile_fields ?? []) as ProfileFieldDef[]).slice().sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const canEdit = access === 'edit';
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<ProfileFieldDef | null>(null);
  const order = useAction();
  const move = (id: number, delta: -1 | 1) => order.run(() => call('PATCH', '/realm/profile_fields', { order: moved(fields.map((f) => f.id), id, delta) }), t('admin.reordered'));
  const typeLabel = (type: number) => {
    const found = FIELD_TYPE_LABELS.find((o) => o.value === type);
    return found ? t(found.label) : String(type);
  };
  return (
    <SettingsSection title={t('admin.section.profile_fields')} description={t('admin.pf.about')} testId="admin-profile-fields">
      {canEdit && (
        <SettingsGroup title={t('admin.pf.add')}>
          <ProfileFieldEditor initial={EMPTY_FIELD} isNew submitLabel={t('admin.pf.add_button')} okText={t('admin.pf.added')} request={(f) => call('POST', '/realm/profile_fields', createFieldParams(f))} />
        </SettingsGroup>
      )}
      <SettingsGroup title={t('admin.pf.list')}>
        <ActionStatus state={order.state} />
        <ul className="settings-list" data-testid="profile-fields-list">
          {fields.map((f, i) =>
            editing === f.id ? (
              <li key={f.id}>
                <ProfileFieldEditor
                  initial={formOf(f)}
                  isNew={false}
                  submitLabel={t('misc.save')}
                  okText={t('admin.saved')}
                  request={(form) => call('PATCH', `/realm/profile_fields/${f.id}`, updateFieldParams(form))}
                  onDone={() => setEditing(null)}
                  onCancel={() => setEditing(null)}
                />
              </li>
            ) : (
              <li key={f.id}>
                <span className="grow">
                  <strong>{f.name}</strong> <span className="setting-hint">{typeLabel(f.type)}{f.required ? ` · ${t('admin.pf.required_short')}` : ''}</span>
                  {f.hint && <span className="setting-hint"> — {f.hint}</span>}
                </span>
                {canEdit && (
                  <>
                    <button type="button" disabled={i === 0} onClick={() => move(f.id, -1)} aria-label={t('admin.move_up_named', { name: f.name })}>↑</button>
                    <button type="button" disabled={i === fields.length - 1} onClick={() => move(f.id, 1)} aria-label={t('admin.move_down_named', { name: f.name })}>↓</button>
                    <button type="button" onClick={() => setEditing(f.id)} aria-label={t('admin.edit_named', { name: f.name })}>{t('admin.edit')}</button>
                    <button type="button" className="danger-text" onClick={() => setDeleting(f)} aria-label={t('admin.delete_named', { name: f.name })}>{t('admin.delete')}</button>
                  </>
                )}
              </li>
            ),
          )}
        </ul>
        {!fields.length && <p className="settings-description">{t('admin.pf.none')}</p>}
      </SettingsGroup>
      {deleting && (
        <ConfirmDialog title={t('admin.pf.delete_title', { name: deleting.name })} confirmLabel={t('admin.delete')} onClose={() => setDeleting(null)} onConfirm={() => call('DELETE', `/realm/profile_fields/${deleting.id}`)}>
          <p>{t('admin.pf.delete_detail')}</p>
        </ConfirmDialog>
      )}
    </SettingsSection>
  );
}
