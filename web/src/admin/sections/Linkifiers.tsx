/**
 * Linkifiers (register's realm_linkifiers, kept by realm_linkifiers events): patterns that
 * turn text into links. Adding (POST /realm/filters), editing, deleting after a confirmation,
 * and their order (which one wins when two match).
 */
import { useId, useState } from 'react';
import { t } from '../../i18n';
import { SettingsGroup, SettingsSection } from '../../settings/controls';
import { useReg } from '../../state/store';
import type { SectionProps } from '../AdminView';
import { call } from '../api';
import { ActionStatus } from '../components/ActionStatus';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useAction } from '../components/useAction';
import { moved } from '../reorder';

export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

export default function Linkifiers({ access }: SectionProps) {
  const reg = useReg();
  const list = (reg.realm_linkifiers ?? []) as Linkifier[];
  const canEdit = access === 'edit';
  const [deleting, setDeleting] = useState<Linkifier | null>(null);
  const order = useAction();
  const move = (id: number, delta: -1 | 1) => order.run(() => call('PATCH', '/realm/linkifiers', { ordered_linkifier_ids: moved(list.map((l) => l.id), id, delta) }), t('admin.reordered'));
  return (
    <SettingsSection title={t('admin.section.linkifiers')} description={t('admin.linkifiers.about')} testId="admin-linkifiers">
      {canEdit && (
        <SettingsGroup title={t('admin.linkifiers.add')}>
          <LinkifierForm submitLabel={t('admin.linkifiers.add_button')} request={(p) => call('POST', '/realm/filters', p)} okText={t('admin.linkifiers.added')} resetOnSuccess />
        </SettingsGroup>
      )}
      <SettingsGroup title={t('admin.linkifiers.list')}>
        <ActionStatus state={order.state} />
        <ul className="settings-list" data-testid="linkifiers-list">
          {list.map((l, i) => (
            <Row key={l.id} linkifier={l} canEdit={canEdit} first={i === 0} last={i === list.length - 1} onMove={move} onDelete={() => setDeleting(l)} />
          ))}
        </ul>
        {!list.length && <p className="settings-description">{t('admin.linkifiers.none')}</p>}
      </SettingsGroup>
      {deleting && (
        <ConfirmDialog title={t('admin.linkifiers.delete_title')} confirmLabel={t('admin.delete')} onClose={() => setDeleting(null)} onConfirm={() => call('DELETE', `/realm/filters/${deleting.id}`)}>
          <p><code>{deleting.pattern}</code> → <code>{deleting.url_template}</code></p>
        </ConfirmDialog>
      )}
    </SettingsSection>
  );
}

function Row({ linkifier, canEdit, first, last, onMove, onDelete }: { linkifier: Linkifier; canEdit: boolean; first: boolean; last: boolean; onMove: (id: number, d: -1 | 1) => void; onDelete: () => void }) {
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <li>
        <LinkifierForm
          initial={linkifier}
          submitLabel={t('misc.save')}
          request={(p) => call('PATCH', `/realm/filters/${linkifier.id}`, p)}
          okText={t('admin.saved')}
          onDone={() => setEditing(false)}
          onCancel={() => setEditing(false)}
        />
      </li>
    );
  }
  return (
    <li>
      <span className="grow">
        <code>{linkifier.pattern}</code> → <code>{linkifier.url_template}</code>
      </span>
      {canEdit && (
        <>
          <button type="button" disabled={first} onClick={() => onMove(linkifier.id, -1)} aria-label={t('admin.move_up_named', { name: linkifier.pattern })}>↑</button>
          <button type="button" disabled={last} onClick={() => onMove(linkifier.id, 1)} aria-label={t('admin.move_down_named', { name: linkifier.pattern })}>↓</button>
          <button type="button" onClick={() => setEditing(true)} aria-label={t('admin.edit_named', { name: linkifier.pattern })}>{t('admin.edit')}</button>
          <button type="button" className="danger-text" onClick={onDelete} aria-label={t('admin.delete_named', { name: linkifier.pattern })}>{t('admin.delete')}</button>
        </>
      )}
    </li>
  );
}

function LinkifierForm(props: {
  initial?: Linkifier;
  submitLabel: string;
  request: (params: Record<string, unknown>) => Promise<unknown>;
  okText: string;
  resetOnSuccess?: boolean;
  onDone?: () => void;
  onCancel?: () => void;
}) {
  const id = useId();
  const [pattern, setPattern] = useState(props.initial?.pattern ?? '');
  const [template, setTemplate] = useState(props.initial?.url_template ?? '');
  const action = useAction();
  return (
    <form
      className="admin-inline-form grow"
      onSubmit={(e) => {
        e.preventDefault();
        action.run(() => props.request({ pattern: pattern.trim(), url_template: template.trim() }), props.okText, () => {
          if (props.resetOnSuccess) {
            setPattern('');
            setTemplate('');
          }
          props.onDone?.();
        });
      }}
    >
      <label htmlFor={`${id}-pattern`}>{t('admin.linkifiers.pattern')}</label>
      <input id={`${id}-pattern`} type="text" required placeholder="#(?P<id>[0-9]+)" value={pattern} onChange={(e) => setPattern(e.target.value)} />
      <label htmlFor={`${id}-template`}>{t('admin.linkifiers.template')}</label>
      <input id={`${id}-template`} type="text" required placeholder="https://github.com/org/repo/issues/{id}" value={template} onChange={(e) => setTemplate(e.target.value)} />
      <button type="submit" className="primary" disabled={!pattern.trim() || !template.trim() || action.state.busy}>{props.submitLabel}</button>
      {props.onCancel && <button type="button" onClick={props.onCancel}>{t('misc.cancel')}</button>}
      <ActionStatus state={action.state} />
    </form>
  );
}
