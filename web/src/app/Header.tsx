/**
 * The header bar: on a phone the button that opens the sidebar drawer; the organization's icon
 * and name (a link home); the search box; the people sidebar's switch and the personal menu.
 */
import { useState } from 'react';
import { t } from '../i18n';
import type { View } from '../narrow/hash';
import { SearchBox } from '../search/SearchBox';
import { useReg } from '../state/store';
import { PersonalMenu } from './PersonalMenu';
import { Icon } from '../ui/Icon';

export function Header({ view, leftOpen, onLeft, rightOpen, onRight }: { view: View; leftOpen: boolean; onLeft: () => void; rightOpen: boolean; onRight: () => void }) {
  const reg = useReg();
  const [searching, setSearching] = useState(false);
  const [iconFailed, setIconFailed] = useState(false);
  const icon = iconFailed ? undefined : reg.realm_icon_url;
  return (
    <header className={`app-header${searching ? ' searching' : ''}`}>
      <button type="button" className="icon-button hamburger" aria-label={t('nav.open_sidebar')} aria-expanded={leftOpen} aria-controls="left-sidebar" onClick={onLeft} data-testid="hamburger">
        <Icon name="menu" size={20} />
      </button>
      <a href="#" className="realm-brand" title={t('nav.home', { name: reg.realm_name })}>
        {icon ? <img src={icon} alt="" width={28} height={28} className="realm-icon" onError={() => setIconFailed(true)} /> : <span className="realm-icon realm-icon-letter" aria-hidden="true">{reg.realm_name.slice(0, 1)}</span>}
        <span className="realm-name">{reg.realm_name}</span>
      </a>
      <div className="header-search">
        <SearchBox view={view} onDone={() => setSearching(false)} />
      </div>
      <button type="button" className="icon-button search-opener" aria-label={t('search.label')} onClick={() => { setSearching(true); setTimeout(() => document.querySelector<HTMLInputElement>('[data-testid="search-input"]')?.focus()); }}>
        <Icon name="search" size={18} />
      </button>
      <button type="button" className="icon-button people-toggle" aria-label={rightOpen ? t('nav.hide_people') : t('nav.show_people')} aria-expanded={rightOpen} aria-controls="right-sidebar" onClick={onRight} data-testid="people-toggle">
        <Icon name="people" size={20} />
      </button>
      <PersonalMenu />
    </header>
  );
}
