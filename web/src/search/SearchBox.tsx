/**
 * The search box in the header (the WAI-ARIA combobox pattern): it shows the current narrow as
 * text, suggests while typing (arrows choose, Tab or a click takes a suggestion into the box),
 * and Enter narrows to what it says. `/` focuses it from anywhere; Escape gives focus back.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { t } from '../i18n';
import { viewHash, type View } from '../narrow/hash';
import { navigate } from '../app/route';
import { store } from '../state/store';
import { directoryOf } from './directory';
import { fromNarrowTerms, parseQuery, toNarrowTerms, unparseQuery } from './query';
import { suggest, type Suggestion } from './suggestions';
import { describeTerm } from './describe';
import { Icon } from '../ui/Icon';

let focusBox: (() => void) | null = null;

/** Focuses the search box (the `/` shortcut). */
export function focusSearch(): boolean {
  if (!focusBox) return false;
  focusBox();
  return true;
}

function queryOf(view: View): string {
  if (view.kind !== 'narrow' || !store.get().reg) return '';
  return unparseQuery(fromNarrowTerms(view.terms, directoryOf(store.get())));
}

export function SearchBox({ view, onDone }: { view: View; onDone?: () => void }) {
  const [text, setText] = useState(() => queryOf(view));
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const viewKey = viewHash(view);
  const viewRef = useRef(view);
  viewRef.current = view;

  useEffect(() => {
    if (document.activeElement !== input.current) setText(queryOf(view));
  }, [viewKey]);
  useEffect(() => {
    focusBox = () => input.current?.focus();
    return () => {
      focusBox = null;
    };
  }, []);

  const suggestions: Suggestion[] = useMemo(() => (open && store.get().reg ? suggest(text, directoryOf(store.get()), 8) : []), [text, open]);

  const submit = (query: string) => {
    const terms = parseQuery(query);
    setOpen(false);
    setActive(-1);
    input.current?.blur();
    onDone?.();
    if (!terms.length) return navigate('#');
    navigate(viewHash({ kind: 'narrow', terms: toNarrowTerms(terms, directoryOf(store.get())) }));
  };
  const take = (s: Suggestion) => {
    // An operator waiting for its operand stays in the box; anything complete narrows at once.
    if (s.query.endsWith(':')) {
      setText(s.query);
      setActive(-1);
      input.current?.focus();
    } else {
      setText(s.query);
      submit(s.query);
    }
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      if (!suggestions.length) return;
      const delta = e.key === 'ArrowDown' ? 1 : -1;
      // -1 is the text as typed; the arrows cycle through it and the suggestions.
      setActive((i) => {
        const next = i + delta;
        return next >= suggestions.length ? -1 : next < -1 ? suggestions.length - 1 : next;
      });
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const chosen = active >= 0 ? suggestions[active] : undefined;
      if (chosen) take(chosen);
      else submit(text);
    } else if (e.key === 'Tab' && open && active >= 0 && suggestions[active]) {
      e.preventDefault();
      setText(suggestions[active]!.query + (suggestions[active]!.query.endsWith(':') ? '' : ' '));
      setActive(-1);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      if (open && suggestions.length) {
        setOpen(false);
        return;
      }
      setText(queryOf(view));
      input.current?.blur();
      onDone?.();
    }
  };

  const activeId = active >= 0 && active < suggestions.length ? `${listId}-${active}` : undefined;
  return (
    <form className="search-box" role="search" onSubmit={(e) => { e.preventDefault(); submit(text); }}>
      <span className="search-icon"><Icon name="search" /></span>
      <input
        ref={input}
        type="text"
        role="combobox"
        aria-label={t('search.label')}
        aria-expanded={open && suggestions.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeId}
        placeholder={t('search.placeholder')}
        value={text}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={(e) => {
          // The current narrow stays, ready to be refined: what is typed goes after it.
          const el = e.currentTarget;
          if (el.value && !el.value.endsWith(' ')) setText(`${el.value} `);
          requestAnimationFrame(() => el.setSelectionRange(el.value.length, el.value.length));
          setOpen(true);
        }}
        onBlur={() => setTimeout(() => {
          setOpen(false);
          // Left without searching: the box shows the narrow again (and on a phone folds away).
          if (document.activeElement !== input.current) {
            setText(queryOf(viewRef.current));
            onDone?.();
          }
        }, 150)}
        onKeyDown={onKeyDown}
        data-testid="search-input"
      />
      {text && (
        <button type="button" className="icon-button small search-clear" aria-label={t('search.clear')} onClick={() => { setText(''); input.current?.focus(); }}>×</button>
      )}
      <ul id={listId} role="listbox" aria-label={t('search.suggestions')} className={`search-suggestions${open && suggestions.length ? ' open' : ''}`}>
        {open &&
          suggestions.map((s, i) => (
            <li key={s.query} id={`${listId}-${i}`} role="option" aria-selected={i === active} className={i === active ? 'active' : undefined} onMouseDown={(e) => { e.preventDefault(); take(s); }}>
              <span className="suggestion-text">{s.query}</span>
              <span className="suggestion-description">{describeTerm(s.term)}</span>
            </li>
          ))}
      </ul>
    </form>
  );
}
