/**
 * The emoji picker: a dialog with a search field and a grid of emoji. Unsearched, the grid
 * has sections (popular, the realm's own, then the Unicode categories) with a row of buttons
 * that jump to each; searched, one list of matches, the realm's custom emoji first. Arrow keys
 * move in the grid, Enter picks, the field keeps focus while typing. Loaded only when first
 * opened, with the categories' table (made at build time) in the same chunk.
 */
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import categories from 'virtual:emoji-categories';
import { t, type StringKey } from '../i18n';
import { Dialog } from '../ui/Dialog';
import { emojiChars, useEmojiList, type EmojiEntry } from './data';
import { browseOrder, dedupeEmoji, emojiSections, searchEmoji, type EmojiSection } from './search';

const COLUMNS = 8;

export function EmojiGlyph({ entry }: { entry: Pick<EmojiEntry, 'type' | 'code' | 'url' | 'name'> }) {
  if (entry.type === 'unicode_emoji') return <span className="emoji-glyph" aria-hidden="true">{emojiChars(entry.code)}</span>;
  return <img className="emoji-glyph emoji-image" src={entry.url} alt="" loading="lazy" />;
}

const SECTION_LABELS: Record<EmojiSection['id'], StringKey> = {
  popular: 'emoji.popular', custom: 'emoji.custom', smileys: 'emoji.smileys', people: 'emoji.people', nature: 'emoji.nature', food: 'emoji.food',
  activities: 'emoji.activities', travel: 'emoji.travel', objects: 'emoji.objects', symbols: 'emoji.symbols', flags: 'emoji.flags',
};

function sectionLabel(id: EmojiSection['id']): StringKey {
  return SECTION_LABELS[id];
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
  const sections: EmojiSection[] = useMemo(() => (query.trim() ? [{ id: 'custom', entries: searchEmoji(list, query, 240) }] : emojiSections(list, categories)), [list, query]);
  const results = useMemo(() => sections.flatMap((sec) => sec.entries), [sections]);
  const browsing = !query.trim();
  const activeIndex = Math.min(active, Math.max(0, results.length - 1));
  const current = results[activeIndex];

  // Where each section's first cell falls in the one index the arrow keys move through.
  const starts = useMemo(() => sections.reduce<number[]>((acc, sec, i) => [...acc, i === 0 ? 0 : acc[i - 1]! + sections[i - 1]!.entries.length], []), [sections]);
  const jumpTo = (id: string) => {
    const s = sections.findIndex((sec) => sec.id === id);
    grid.current?.querySelector<HTMLElement>(`[data-section="${id}"]`)?.scrollIntoView({ block: 'start' });
    if (s >= 0) setActive(starts[s]!);
  };
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
        {browsing && sections.length > 1 && (
          <div className="emoji-sections" role="toolbar" aria-label={t('emoji.sections')}>
            {sections.map((sec) => (
              <button key={sec.id} type="button" className="emoji-section-jump" title={t(sectionLabel(sec.id))} aria-label={t(sectionLabel(sec.id))} onClick={() => jumpTo(sec.id)}>
                <EmojiGlyph entry={sec.entries[0]!} />
              </button>
            ))}
          </div>
        )}
        <div id="emoji-grid" ref={grid} className="emoji-grid" role="listbox" aria-label={t('feed.emoji_results', { count: results.length })}>
          {sections.map((sec, s) => {
            const offset = starts[s]!;
            return (
              <div key={sec.id} role="group" className="emoji-section" data-section={sec.id} aria-label={browsing ? t(sectionLabel(sec.id)) : undefined}>
                {browsing && <div className="emoji-section-title" aria-hidden="true">{t(sectionLabel(sec.id))}</div>}
                <div className="emoji-section-grid">
                  {sec.entries.map((e, j) => {
                    const i = offset + j;
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
              </div>
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
