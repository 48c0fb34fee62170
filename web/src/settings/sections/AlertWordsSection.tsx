/** Alert words: words that notify like a mention; added and removed one at a time. */
import { useEffect, useId, useRef, useState } from 'react';
import { t } from '../../i18n';
import { useAppState } from '../../state/store';
import { SaveState, SettingsSection, useSave } from '../controls';
import { addAlertWords, removeAlertWords } from '../lib/calls';

const NONE: string[] = [];
const has = (words: string[], word: string) => words.some((w) => w.toLowerCase() === word.toLowerCase());

export function AlertWordsSection() {
  const words = useAppState((s) => s.reg?.alert_words ?? NONE);
  const id = useId();
  const [draft, setDraft] = useState('');
  const adding = useSave(words);
  // A removed word's row leaves the list once its event arrives; the outcome is said here.
  const [notice, setNotice] = useState('');
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const word = draft.trim();
    if (!word) return;
    if (has(words, word)) return adding.fail(t('settings.alert.exists', { word }));
    adding.save(() => addAlertWords([word]), undefined, (now) => has(now, word));
    setDraft('');
  };
  return (
    <SettingsSection title={t('settings.nav.alert_words')} description={t('settings.alert.about')} testId="settings-alert-words">
      <form className="settings-actions" onSubmit={submit}>
        <label htmlFor={id}>{t('settings.alert.new')}</label>
        <input id={id} type="text" value={draft} maxLength={100} onChange={(e) => { setDraft(e.target.value); if (adding.status.kind === 'error') adding.clear(); }} aria-describedby={`${id}-state`} />
        <button type="submit" disabled={!draft.trim()}>{t('settings.alert.add')}</button>
        <SaveState id={`${id}-state`} status={adding.status} />
      </form>
      <p className="settings-note" role="status" hidden={!notice}>{notice}</p>
      {words.length === 0 ? (
        <p className="settings-note">{t('settings.alert.none')}</p>
      ) : (
        <ul className="settings-list" data-testid="alert-words">
          {words.slice().sort((a, b) => a.localeCompare(b)).map((w) => <WordRow key={w} word={w} onGone={() => setNotice(t('settings.alert.removed', { word: w }))} />)}
        </ul>
      )}
    </SettingsSection>
  );
}

function WordRow({ word, onGone }: { word: string; onGone: () => void }) {
  const present = useAppState((s) => has(s.reg?.alert_words ?? NONE, word));
  const save = useSave(present);
  const id = useId();
  const latest = useRef({ saving: false, onGone });
  latest.current = { saving: save.status.kind === 'saving', onGone };
  useEffect(
    () => () => {
      if (latest.current.saving) latest.current.onGone();
    },
    [],
  );
  return (
    <li>
      <span className="grow">{word}</span>
      <button type="button" aria-label={t('settings.alert.remove_label', { word })} aria-describedby={id} disabled={save.status.kind === 'saving'} onClick={() => save.save(() => removeAlertWords([word]), false)}>
        {t('settings.remove')}
      </button>
      <SaveState id={id} status={save.status} />
    </li>
  );
}
