/** The list of keyboard shortcuts (`?`), grouped as the family groups them. */
import { t } from '../i18n';
import { Dialog } from '../ui/Dialog';
import { BINDINGS } from './keymap';
import { setShortcutsHelp, useShortcutsHelp } from './state';

const GROUPS = [
  { id: 'navigation', title: 'shortcuts.group.navigation' },
  { id: 'messages', title: 'shortcuts.group.messages' },
  { id: 'compose', title: 'shortcuts.group.compose' },
] as const;

export function ShortcutsHost() {
  const open = useShortcutsHelp();
  if (!open) return null;
  return (
    <Dialog title={t('shortcuts.title')} onClose={() => setShortcutsHelp(false)} className="shortcuts-dialog" testId="shortcuts-dialog">
      {GROUPS.map((g) => (
        <section key={g.id} className="shortcut-group">
          <h3>{t(g.title)}</h3>
          <table className="shortcut-table">
            <tbody>
              {BINDINGS.filter((b) => b.group === g.id).map((b) => (
                <tr key={b.action}>
                  <td>{t(b.help)}</td>
                  <td className="shortcut-keys">
                    {b.keys.map((k, i) => (
                      <span key={k}>
                        {i > 0 && ` ${t('shortcuts.or')} `}
                        <kbd>{k}</kbd>
                      </span>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </Dialog>
  );
}
