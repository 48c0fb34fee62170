/**
 * The interface's small icons, drawn inline (no font or file to load, and the same on every
 * system). Decorative: the control around an icon carries the name.
 */
const PATHS = {
  inbox: 'M2 9.5 4.2 3h7.6L14 9.5V13H2zM2 9.5h3.5l1 1.5h3l1-1.5H14',
  recent: 'M8 2a6 6 0 1 1 0 12A6 6 0 0 1 8 2zM8 4.5V8l2.5 1.5',
  feed: 'M2.5 4h11M2.5 8h11M2.5 12h7',
  at: 'M10.5 8a2.5 2.5 0 1 1-5 0 2.5 2.5 0 0 1 5 0zm0 0v1a1.75 1.75 0 0 0 3.5 0V8A6 6 0 1 0 11 13.2',
  star: 'M8 2.2l1.8 3.7 4 .6-2.9 2.8.7 4L8 11.4l-3.6 1.9.7-4L2.2 6.5l4-.6z',
  draft: 'M10.5 2.5l3 3L6 13H3v-3zM9 4l3 3',
  scheduled: 'M2.5 4h11v9.5h-11zM2.5 7h11M5.5 2.5v3M10.5 2.5v3M8 9v2.5h2',
  lock: 'M4 7.5h8V14H4zM5.5 7.5V5.5a2.5 2.5 0 0 1 5 0v2',
  globe: 'M8 2a6 6 0 1 1 0 12A6 6 0 0 1 8 2zM2 8h12M8 2c-2.2 3.5-2.2 8.5 0 12M8 2c2.2 3.5 2.2 8.5 0 12',
  hash: 'M6 2.5 5 13.5M11 2.5l-1 11M2.5 6h11M2 10h11',
  people: 'M6 7.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM1.5 13.5c0-2.5 2-4 4.5-4s4.5 1.5 4.5 4M10.5 2.8a2.3 2.3 0 0 1 0 4.4M12 9.7c1.5.5 2.5 1.8 2.5 3.8',
  search: 'M7 2.5a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9zM10.3 10.3 14 14',
  menu: 'M2.5 4h11M2.5 8h11M2.5 12h11',
  more: 'M8 3.5v.01M8 8v.01M8 12.5v.01',
  plus: 'M8 3v10M3 8h10',
  check: 'M3 8.5 6.5 12 13 4.5',
  followed: 'M8 2a6 6 0 1 1 0 12A6 6 0 0 1 8 2zM8 5.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5z',
  muted: 'M2.5 6h2.5L8.5 3v10L5 10H2.5zM11 6l3 4M14 6l-3 4',
  bell: 'M4 11V7.5a4 4 0 0 1 8 0V11l1.5 1.5h-11zM6.5 13.5a1.5 1.5 0 0 0 3 0',
  close: 'M4 4l8 8M12 4l-8 8',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 16, className }: { name: IconName; size?: number; className?: string }) {
  const bold = name === 'more';
  return (
    <svg className={`icon${className ? ` ${className}` : ''}`} width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth={bold ? 2.5 : 1.4} strokeLinecap="round" strokeLinejoin="round">
      <path d={PATHS[name]} />
    </svg>
  );
}

/** A channel's mark in its colour: # for most, a lock for private ones, a globe for web-public ones. */
export function ChannelIcon({ sub }: { sub: { color: string; invite_only: boolean; is_web_public?: boolean } }) {
  return (
    <span className="channel-icon" style={{ color: sub.color }}>
      <Icon name={sub.invite_only ? 'lock' : sub.is_web_public ? 'globe' : 'hash'} size={14} />
    </span>
  );
}
