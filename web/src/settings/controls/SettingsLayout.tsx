/**
 * The frame of a settings screen: the list of sections (links to their hashes) and the chosen
 * section's content. On a phone the list becomes a row that scrolls sideways above the content.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { t } from '../../i18n';

export interface SectionLink {
  key: string;
  label: string;
}

export interface SettingsLayoutProps {
  title: string;
  sections: readonly SectionLink[];
  current: string;
  /** The hash of a section, e.g. `#settings/profile`. */
  hrefOf: (key: string) => string;
  children: ReactNode;
  testId?: string;
}

export function SettingsLayout({ title, sections, current, hrefOf, children, testId }: SettingsLayoutProps) {
  const nav = useRef<HTMLElement>(null);
  // On a phone the list scrolls sideways: keep the current section's link in sight.
  useEffect(() => {
    nav.current?.querySelector('[aria-current="page"]')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [current]);
  return (
    <div className="settings-layout" data-testid={testId}>
      <div className="settings-top">
        <h1>{title}</h1>
        <a className="settings-back" href="#">{t('settings.back')}</a>
      </div>
      <nav ref={nav} className="settings-nav" aria-label={t('settings.sections')}>
        <ul>
          {sections.map((s) => (
            <li key={s.key}>
              <a href={hrefOf(s.key)} aria-current={s.key === current ? 'page' : undefined}>{s.label}</a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings-content">{children}</div>
    </div>
  );
}
