/** The few pictures the compose box draws itself (emoji fonts are not everywhere). */
const common = { width: 16, height: 16, viewBox: '0 0 16 16', fill: 'none', stroke: 'currentColor', strokeWidth: 1.6, strokeLinecap: 'round' as const, strokeLinejoin: 'round' as const, 'aria-hidden': true };

export const PaperclipIcon = () => (
  <svg {...common}>
    <path d="M13.5 7.5 8 13a3.5 3.5 0 0 1-5-5l5.8-5.8a2.3 2.3 0 0 1 3.3 3.3L6.3 11.3a1.1 1.1 0 0 1-1.6-1.6L10 4.5" />
  </svg>
);

export const LinkIcon = () => (
  <svg {...common}>
    <path d="M6.5 9.5a3 3 0 0 0 4.2 0l2.4-2.4a3 3 0 0 0-4.2-4.2l-.8.8M9.5 6.5a3 3 0 0 0-4.2 0L2.9 8.9a3 3 0 0 0 4.2 4.2l.8-.8" />
  </svg>
);

export const PollIcon = () => (
  <svg {...common}>
    <path d="M3 13V8M8 13V3M13 13V6M1.5 14.5h13" />
  </svg>
);
