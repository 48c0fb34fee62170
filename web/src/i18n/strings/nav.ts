/** Getting around: the header, sidebars, search, keyboard shortcuts and the shared small components. */
export const nav = {
  'ui.close': 'Close',
  'ui.unknown_user': 'Unknown user',
  'ui.open_card': 'Open the card of {name}',
  'ui.presence.active': 'Active',
  'ui.presence.idle': 'Idle',
  'ui.presence.offline': 'Offline',
} as const;
