/**
 * A tooltip for a control whose name alone is terse (an icon button): shown on hover and on
 * keyboard focus, dismissed by Escape, and tied to the control with aria-describedby.
 */
import { cloneElement, useId, useState, type ReactElement } from 'react';
import '../styles/ui.css';

export function Tooltip({ text, children }: { text: string; children: ReactElement<Record<string, unknown>> }) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const child = cloneElement(children, {
    'aria-describedby': id,
    onMouseEnter: () => setShown(true),
    onMouseLeave: () => setShown(false),
    onFocus: () => setShown(true),
    onBlur: () => setShown(false),
    onKeyDown: (e: React.KeyboardEvent) => {
      if (e.key === 'Escape' && shown) setShown(false);
      (children.props.onKeyDown as ((e: React.KeyboardEvent) => void) | undefined)?.(e);
    },
  });
  return (
    <span className="tooltip-wrap">
      {child}
      <span role="tooltip" id={id} className={`tooltip${shown ? ' shown' : ''}`}>{text}</span>
    </span>
  );
}
