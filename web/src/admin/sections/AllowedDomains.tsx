/**
 * The organization's allowed email domains, under the sign-up restriction they serve: the list
 * in one line (as the family writes it) and, for owners, a dialog to add domains, allow their
 * subdomains and remove them. The list is register's realm_domains, kept by realm_domains
 * events; each control waits for its event, and a refusal is the server's words.
 */
import { useId, useRef, useState } from 'react';
import { t } from '../../i18n';
import { SaveState, useSave } from '../../settings/controls';
import { useReg } from '../../state/store';
import { Dialog } from '../../ui/Dialog';
import { call } from '../api';
import { ActionStatus } from '../components/ActionStatus';
import { useAction } from '../components/useAction';
import { addDomainParams, domainPath, domainsSummary, isListed, normalizeDomain, removalLiftsRestriction, sortDomains, type RealmDomain } from '../domains';

function useDomains(): { list: RealmDomain[]; restricted: boolean } {
  const reg = useReg();
  return { list: sortDomains((reg.realm_domains as RealmDomain[] | undefined) ?? []), restricted: reg.realm_emails_restricted_to_domains === true };
}

/** The line under "Restrict email domains of new users": the domains, whether they apply, and the way to change them. */
export function AllowedDomains({ canEdit, showOwnerNote }: { canEdit: boolean; showOwnerNote: boolean }) {
  const id = useId();
  const { list, restricted } = useDomains();
  const [open, setOpen] = useState(false);
  // Only those who can change the restriction are told how to turn it on.
  const state = restricted ? (list.length ? 'admin.domains.in_effect' : 'admin.domains.empty_restricted') : canEdit ? 'admin.domains.not_in_effect' : 'admin.domains.not_in_effect_plain';
  return (
    <div className="admin-domains" data-testid="allowed-domains">
      <p className="admin-domains-line">
        <span id={`${id}-label`} className="admin-domains-label">{t('admin.domains.label')}:</span>{' '}
        <span aria-labelledby={`${id}-label`} data-testid="allowed-domains-list">{list.length ? domainsSummary(list) : t('admin.domains.none_set')}</span>
      </p>
      <p className={restricted && !list.length ? 'settings-error' : 'setting-hint'}>{t(state)}</p>
      {canEdit && (
        <button type="button" onClick={() => setOpen(true)}>
          {t('admin.domains.configure')}
        </button>
      )}
      {!canEdit && showOwnerNote && <p className="setting-hint">{t('admin.domains.owner_only')}</p>}
      {open && <DomainsDialog onClose={() => setOpen(false)} />}
    </div>
  );
}

function DomainsDialog({ onClose }: { onClose: () => void }) {
  const id = useId();
  const { list, restricted } = useDomains();
  const [text, setText] = useState('');
  const [allowSubdomains, setAllowSubdomains] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const adding = useAction();
  const removal = useAction();
  const listed = text.trim() !== '' && isListed(list, text);

  const add = (e: React.FormEvent) => {
    e.preventDefault();
    // The dialog is portalled, but React still bubbles its submit to the settings form around it.
    e.stopPropagation();
    if (!text.trim() || listed) return;
    const params = addDomainParams(text, allowSubdomains);
    adding.run(() => call('POST', '/realm/domains', params), t('admin.domains.added', { domain: params.domain }), () => {
      setText('');
      setAllowSubdomains(false);
    });
  };
  const remove = (domain: string) => {
    adding.clear();
    // The row goes when the event comes; focus waits in the box for the next domain.
    removal.run(() => call('DELETE', domainPath(domain)), t('admin.domains.removed', { domain }), () => input.current?.focus());
  };

  return (
    <Dialog title={t('admin.domains.title')} onClose={onClose} className="admin-dialog" testId="realm-domains-dialog" footer={<button type="button" onClick={onClose}>{t('misc.close')}</button>}>
      <p className="settings-description">{t('admin.domains.about')}</p>
      <form className="admin-inline-form" onSubmit={add} aria-labelledby={`${id}-add`} data-testid="realm-domain-form">
        <h3 id={`${id}-add`} className="admin-domains-add">{t('admin.domains.add')}</h3>
        <label htmlFor={`${id}-domain`}>{t('admin.domains.domain')}</label>
        <input
          id={`${id}-domain`}
          ref={input}
          type="text"
          inputMode="url"
          autoCapitalize="none"
          spellCheck={false}
          placeholder={t('admin.domains.placeholder')}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            adding.clear();
          }}
          aria-invalid={listed}
          aria-describedby={listed ? `${id}-listed` : undefined}
        />
        <span className="checkbox-row">
          <input id={`${id}-sub`} type="checkbox" checked={allowSubdomains} onChange={(e) => setAllowSubdomains(e.target.checked)} />
          <label htmlFor={`${id}-sub`}>{t('admin.domains.allow_subdomains')}</label>
        </span>
        <button type="submit" className="primary" disabled={!text.trim() || listed || adding.state.busy}>{t('admin.domains.add_button')}</button>
        {listed && <span id={`${id}-listed`} className="settings-error">{t('admin.domains.listed', { domain: normalizeDomain(text) })}</span>}
        <ActionStatus state={adding.state} />
      </form>
      <div className="settings-table-wrap">
        <table className="settings-table" data-testid="realm-domains-table">
          <caption className="visually-hidden">{t('admin.domains.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin.domains.domain')}</th>
              <th scope="col" className="check">{t('admin.domains.allow_subdomains')}</th>
              <th scope="col"><span className="visually-hidden">{t('admin.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {list.map((d) => (
              <DomainRow key={d.domain} domain={d} onRemove={() => remove(d.domain)} busy={removal.state.busy} />
            ))}
          </tbody>
        </table>
      </div>
      {!list.length && <p className="settings-description">{t('admin.domains.empty')}</p>}
      {removalLiftsRestriction(list, restricted) && <p className="setting-hint">{t('admin.domains.last_lifts')}</p>}
      <ActionStatus state={removal.state} />
    </Dialog>
  );
}

function DomainRow({ domain, onRemove, busy }: { domain: RealmDomain; onRemove: () => void; busy: boolean }) {
  const id = useId();
  const save = useSave<boolean>(domain.allow_subdomains);
  return (
    <tr data-domain={domain.domain}>
      <th scope="row" className="admin-domain-name">{domain.domain}</th>
      <td className="check">
        <input
          type="checkbox"
          checked={save.value}
          disabled={save.status.kind === 'saving'}
          aria-label={t('admin.domains.allow_subdomains_of', { domain: domain.domain })}
          aria-describedby={`${id}-state`}
          onChange={(e) => {
            const allow = e.target.checked;
            save.save(() => call('PATCH', domainPath(domain.domain), { allow_subdomains: allow }), allow);
          }}
        />
        <SaveState id={`${id}-state`} status={save.status} />
      </td>
      <td className="admin-row-actions">
        <button type="button" className="danger-text" disabled={busy} onClick={onRemove} aria-label={t('admin.domains.remove_named', { domain: domain.domain })}>
          {t('admin.remove')}
        </button>
      </td>
    </tr>
  );
}
