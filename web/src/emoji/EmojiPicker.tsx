/**
 * The emoji picker: a dialog with a search field and a grid of emoji (the realm's custom emoji
 * first, then :zulip:, then the Unicode table). Arrow keys move in the grid, Enter picks, the
 * field keeps focus while typing. Loaded only when first opened.
 */
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { t } from '../i18n';
import { Dialog } from '../ui/Dialog';
import { emojiChars, useEmojiList, type EmojiEntry } from './data';
import { browseOrder, dedupeEmoji, searchEmoji } from './search';

const COLUMNS = 8;

export function EmojiGlyph({ entry }: { entry: Pick<EmojiEntry, 'type' | 'code' | 'url' | 'name'> }) {
  if (entry.type === 'unicode_emoji') return <span className="emoji-glyph" aria-hidden="true">{emojiChars(entry.code)}</span>;
  return <img className="emoji-glyph emoji-image" src={entry.url} alt="" loading="lazy" />;
}

export interface EmojiPickerProps {
  title?: string;
  anchor?: HTMLElement | null;
  /** Emoji the message already has from the reader (shown as chosen). */
  chosen?: ReadonlySet<string>;
  onPick: (emoji: EmojiEntry) => void;
  onClose: () => void;
}

export default function EmojiPicker({ title, anchor, chosen, onPick, onClose }: EmojiPickerProps) {
  const all = useEmojiList();
  const list = useMemo(() => browseOrder(dedupeEmoji(all)), [all]);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const grid = useRef<HTMLDivElement>(null);
  const results = useMemo(() => searchEmoji(list, query, 240), [list, query]);
  const activeIndex = Math.min(active, Math.max(0, results.length - 1));
  const current = results[activeIndex];

  const focusCell = (i: number) => {
    setActive(i);
    grid.current?.querySelector<HTMLElement>(`[data-index="${i}"]`)?.scrollIntoView({ block: 'nearest' });
  };
  const onKey = (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS };
    const delta = moves[e.key];
    if (delta !== undefined && results.length) {
      // In the search field the left and right arrows move the caret.
      if ((e.target as HTMLElement).tagName === 'INPUT' && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) return;
      e.preventDefault();
      focusCell(Math.max(0, Math.min(results.length - 1, activeIndex + delta)));
    } else if (e.key === 'Enter' && current) {
      e.preventDefault();
      onPick(current);
    }
  };
  return (
    <Dialog title={title ?? t('feed.emoji_picker')} onClose={onClose} anchor={anchor} className="emoji-picker" testId="emoji-picker">
      <div onKeyDown={onKey}>
        <input
          className="emoji-search"
          type="search"
          value={query}
          placeholder={t('feed.emoji_search')}
          aria-label={t('feed.emoji_search')}
          aria-controls="emoji-grid"
          aria-activedescendant={current ? `emoji-option-${activeIndex}` : undefined}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
        />
        <div id="emoji-grid" ref={grid} className="emoji-grid" role="listbox" aria-label={t('feed.emoji_results', { count: results.length })}>
          {results.map((e, i) => {
            const key = `${e.type}:${e.code}`;
            return (
              <button
                key={key}
                id={`emoji-option-${i}`}
                type="button"
                role="option"
                tabIndex={-1}
                data-index={i}
                aria-selected={i === activeIndex}
                aria-label={`:${e.name}:`}
                title={`:${e.name}:`}
                className={`emoji-cell${i === activeIndex ? ' active' : ''}${chosen?.has(key) ? ' chosen' : ''}`}
                onMouseEnter={() => setActive(i)}
                onClick={() => onPick(e)}
              >
                <EmojiGlyph entry={e} />
              </button>
            );
          })}
        </div>
        <div className="emoji-preview" aria-live="polite">
          {current ? `:${current.name}:` : list.length ? t('feed.emoji_none') : t('feed.loading_emoji')}
        </div>
      </div>
    </Dialog>
  );
}
