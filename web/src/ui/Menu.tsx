/**
 * A menu button and its menu (the WAI-ARIA menu button pattern): the button says it has a
 * popup and whether it is open; arrow keys, Home and End move between items, Escape closes and
 * gives focus back to the button, Tab or a click outside closes. Items are actions, links or
 * checkable choices.
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { layerOpened } from './focus';
import '../styles/ui.css';

export type MenuItem =
  | { kind?: 'action'; label: string; onSelect: () => void; danger?: boolean; checked?: boolean; icon?: ReactNode; testId?: string }
  | { kind: 'link'; label: string; href: string; icon?: ReactNode; testId?: string }
  | { kind: 'separator' }
  | { kind: 'custom'; render: () => ReactNode };

export interface MenuButtonProps {
  /** The button's accessible name. */
  label: string;
  /** What the button shows (defaults to the label). */
  children?: ReactNode;
  items: MenuItem[] | (() => MenuItem[]);
  className?: string;
  menuClassName?: string;
  align?: 'start' | 'end';
  testId?: string;
}

export function MenuButton({ label, children, items, className, menuClassName, align = 'start', testId }: MenuButtonProps) {
  const [open, setOpen] = useState(false);
  const [focusLast, setFocusLast] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const onButtonKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setFocusLast(e.key === 'ArrowUp');
      setOpen(true);
    }
  };
  return (
    <span className={`menu-wrap${className ? ` ${className}` : ''}`}>
      <button
        ref={button}
        type="button"
        className="menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={children ? label : undefined}
        title={children ? label : undefined}
        onClick={() => {
          setFocusLast(false);
          setOpen((o) => !o);
        }}
        onKeyDown={onButtonKey}
        data-testid={testId}
      >
        {children ?? label}
      </button>
      {open && <MenuList id={menuId} label={label} items={typeof items === 'function' ? items() : items} onClose={close} focusLast={focusLast} className={`${menuClassName ?? ''} menu-${align}`} anchor={button.current} />}
    </span>
  );
}

interface MenuListProps {
  id?: string;
  label: string;
  items: MenuItem[];
  onClose: (refocus: boolean) => void;
  focusLast?: boolean;
  className?: string;
  anchor?: HTMLElement | null;
  /** Where a menu opened by a right click goes. */
  at?: { x: number; y: number };
}

/** The open menu; also used on its own for a menu opened by a right click. */
export function MenuList({ id, label, items, onClose, focusLast, className, anchor, at }: MenuListProps) {
  const ref = useRef<HTMLUListElement>(null);
  const [pos, setPos] = useState<{ top: number; left: number } | null>(null);
  // Placed on the page (fixed, in a portal) so a scrolling sidebar never clips it.
  useLayoutEffect(() => {
    const box = ref.current!.getBoundingClientRect();
    const rect = at ? { left: at.x, right: at.x, top: at.y, bottom: at.y } : anchor?.getBoundingClientRect();
    if (!rect) return;
    const alignEnd = className?.includes('menu-end');
    let left = alignEnd ? rect.right - box.width : rect.left;
    left = Math.max(4, Math.min(left, window.innerWidth - box.width - 4));
    let top = rect.bottom + 2;
    if (top + box.height > window.innerHeight - 4) top = Math.max(4, rect.top - box.height - 2);
    setPos({ top, left });
  }, [anchor, at, className]);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const release = layerOpened();
    const entries = menuItems(ref.current!);
    (focusLast ? entries[entries.length - 1] : entries[0])?.focus();
    const outside = (e: MouseEvent) => {
      const target = e.target as Node;
      if (!ref.current?.contains(target) && !anchor?.contains(target)) closeRef.current(false);
    };
    document.addEventListener('mousedown', outside);
    return () => {
      release();
      document.removeEventListener('mousedown', outside);
    };
  }, [focusLast, anchor]);
  const onKeyDown = (e: React.KeyboardEvent) => {
    const entries = menuItems(ref.current!);
    const i = entries.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      e.preventDefault();
      entries[(to + entries.length) % entries.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(i + 1);
    else if (e.key === 'ArrowUp') move(i - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(entries.length - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      closeRef.current(true);
    } else if (e.key === 'Tab') closeRef.current(false);
  };
  return createPortal(
    <ul ref={ref} id={id} role="menu" aria-label={label} className={`menu ${className ?? ''}`} onKeyDown={onKeyDown} style={pos ? { top: pos.top, left: pos.left } : { opacity: 0 }}>
      {items.map((item, i) => {
        if (item.kind === 'separator') return <li key={i} role="separator" className="menu-separator" />;
        if (item.kind === 'custom') return <li key={i} role="none" className="menu-custom">{item.render()}</li>;
        if (item.kind === 'link')
          return (
            <li key={i} role="none">
              <a role="menuitem" tabIndex={-1} href={item.href} onClick={() => closeRef.current(false)} data-testid={item.testId}>
                {item.icon}
                {item.label}
              </a>
            </li>
          );
        const checkable = item.checked !== undefined;
        return (
          <li key={i} role="none">
            <button
              type="button"
              role={checkable ? 'menuitemcheckbox' : 'menuitem'}
              aria-checked={checkable ? item.checked : undefined}
              tabIndex={-1}
              className={item.danger ? 'danger' : undefined}
              data-testid={item.testId}
              onClick={() => {
                closeRef.current(true);
                item.onSelect();
              }}
            >
              {item.icon}
              {item.label}
            </button>
          </li>
        );
      })}
    </ul>,
    document.body,
  );
}

function menuItems(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('[role^="menuitem"]')];
}
