/**
 * Setting your status: an emoji and a short text (the family's suggestions one click away),
 * and being away. Saved with POST /users/me/status; the user_status event updates everyone.
 */
import { useState } from 'react';
import { errorText } from '../api';
import { emojiChars } from '../emoji/data';
import { t } from '../i18n';
import { useReg } from '../state/store';
import { Dialog } from '../ui/Dialog';
import { setStatus } from './actions';
import { statusOf } from './hooks';

const MAX_TEXT = 60;

/** The family's default suggestions: emoji name, code and text. */
const PRESETS: Array<{ name: string; code: string; text: () => string }> = [
  { name: 'calendar', code: '1f4c5', text: () => t('status.preset.meeting') },
  { name: 'bus', code: '1f68c', text: () => t('status.preset.commuting') },
  { name: 'sick', code: '1f912', text: () => t('status.preset.sick') },
  { name: 'palm_tree', code: '1f334', text: () => t('status.preset.vacation') },
  { name: 'house', code: '1f3e0', text: () => t('status.preset.remote') },
  { name: 'office', code: '1f3e2', text: () => t('status.preset.office') },
];

export function StatusDialog({ onClose }: { onClose: () => void }) {
  const reg = useReg();
  const current = statusOf(reg, reg.user_id);
  const [text, setText] = useState(current?.status_text ?? '');
  const [emoji, setEmoji] = useState<{ name: string; code: string; type: string } | null>(current?.emoji_name ? { name: current.emoji_name, code: current.emoji_code ?? '', type: current.reaction_type ?? 'unicode_emoji' } : null);
  const [away, setAway] = useState(!!current?.away);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async (clear = false) => {
    setSaving(true);
    try {
      await setStatus({
        status_text: clear ? '' : text.trim(),
        emoji_name: clear || !emoji ? '' : emoji.name,
        ...(emoji && !clear ? { emoji_code: emoji.code, reaction_type: emoji.type } : {}),
        away: clear ? false : away,
      });
      onClose();
    } catch (err) {
      setError(errorText(err));
      setSaving(false);
    }
  };
  return (
    <Dialog
      title={t('status.title')}
      onClose={onClose}
      testId="status-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={() => void save(true)} disabled={saving}>{t('status.clear')}</button>
          <button type="button" className="button" onClick={onClose}>{t('misc.cancel')}</button>
          <button type="button" className="button primary" onClick={() => void save()} disabled={saving}>{t('misc.save')}</button>
        </>
      }
    >
      <form className="status-form" onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <div className="status-input">
          {emoji && (
            <button type="button" className="icon-button" aria-label={t('status.remove_emoji', { name: emoji.name })} onClick={() => setEmoji(null)}>
              {emoji.type === 'unicode_emoji' ? emojiChars(emoji.code) : `:${emoji.name}:`}
            </button>
          )}
          <label className="visually-hidden" htmlFor="status-text">{t('status.text')}</label>
          <input id="status-text" type="text" maxLength={MAX_TEXT} value={text} onChange={(e) => setText(e.target.value)} placeholder={t('status.placeholder')} autoComplete="off" />
        </div>
        <ul className="status-presets" aria-label={t('status.suggestions')}>
          {PRESETS.map((p) => (
            <li key={p.name}>
              <button type="button" className="link-button" onClick={() => { setEmoji({ name: p.name, code: p.code, type: 'unicode_emoji' }); setText(p.text()); }}>
                <span aria-hidden="true">{emojiChars(p.code)}</span> {p.text()}
              </button>
            </li>
          ))}
        </ul>
        <label className="status-away">
          <input type="checkbox" checked={away} onChange={(e) => setAway(e.target.checked)} /> {t('status.away')}
        </label>
        {error && <p role="alert" className="card-error">{t('misc.error', { error })}</p>}
      </form>
    </Dialog>
  );
}
