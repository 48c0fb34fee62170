/** A settings page's heading and its groups of related settings. */
import { useId, type ReactNode } from 'react';

export function SettingsSection({ title, description, children, testId }: { title: string; description?: ReactNode; children: ReactNode; testId?: string }) {
  const id = useId();
  return (
    <section className="settings-section" aria-labelledby={id} data-testid={testId}>
      <h2 id={id}>{title}</h2>
      {description && <p className="settings-description">{description}</p>}
      {children}
    </section>
  );
}

export function SettingsGroup({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section className="settings-group" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {description && <p className="settings-description">{description}</p>}
      {children}
    </section>
  );
}
