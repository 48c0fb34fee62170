/**
 * A modal dialog: role="dialog" with aria-modal, labelled by its title, focus moved in on open
 * and kept inside (Tab wraps), Escape or a click outside closes it, and focus goes back to
 * what had it before. With `anchor` it opens beside that element as a popover (centred on
 * narrow screens), otherwise centred over a dimmed page.
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { t } from '../i18n';
import { focusables, layerOpened, trapTab } from './focus';
import '../styles/ui.css';

export interface DialogProps {
  title: string;
  /** Hides the visible heading (the title still labels the dialog). */
  hideTitle?: boolean;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  anchor?: HTMLElement | DOMRect | null;
  /** Buttons and links along the bottom. */
  footer?: ReactNode;
  testId?: string;
}

export function Dialog({ title, hideTitle, onClose, children, className, anchor, footer, testId }: DialogProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const [pos, setPos] = useState<{ top: number; left: number } | null>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  /** A body that scrolls takes focus, so keys can scroll it (its content may have no control). */
  const [scrolls, setScrolls] = useState(false);

  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!body || typeof ResizeObserver === 'undefined') return;
    const measure = () => setScrolls(body.scrollHeight > body.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(body);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const release = layerOpened();
    const before = document.activeElement as HTMLElement | null;
    const root = ref.current!;
    const first = focusables(root).find((el) => !el.classList.contains('dialog-close') && !el.classList.contains('dialog-body')) ?? focusables(root)[0] ?? root;
    first.focus();
    return () => {
      release();
      if (before && document.contains(before)) before.focus();
    };
  }, []);

  useLayoutEffect(() => {
    if (!anchor || !ref.current || window.innerWidth < 500) return setPos(null);
    const rect = anchor instanceof HTMLElement ? anchor.getBoundingClientRect() : anchor;
    const box = ref.current.getBoundingClientRect();
    const left = Math.max(8, Math.min(rect.left, window.innerWidth - box.width - 8));
    const below = rect.bottom + 4;
    const top = below + box.height > window.innerHeight - 8 ? Math.max(8, rect.top - box.height - 4) : below;
    setPos({ top, left });
  }, [anchor]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      e.preventDefault();
      closeRef.current();
    } else trapTab(e, ref.current!);
  };

  const popover = !!anchor;
  return createPortal(
    <div className={`dialog-backdrop${popover ? ' popover-backdrop' : ''}`} onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`dialog${popover ? ' popover' : ''}${className ? ` ${className}` : ''}`}
        style={pos ? { position: 'fixed', top: pos.top, left: pos.left } : undefined}
        onKeyDown={onKeyDown}
        data-testid={testId}
      >
        <div className="dialog-header">
          <h2 id={titleId} className={hideTitle ? 'visually-hidden' : 'dialog-title'}>{title}</h2>
          <button type="button" className="dialog-close icon-button" onClick={onClose} aria-label={t('ui.close')}>×</button>
        </div>
        <div className="dialog-body" ref={bodyRef} tabIndex={scrolls ? 0 : undefined}>{children}</div>
        {footer && <div className="dialog-footer">{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}
