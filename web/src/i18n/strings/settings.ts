/** Personal settings (#settings/...) and the form controls the organization settings share. */
export const settings = {
  // Shared controls.
  'settings.saving': 'Saving…',
  'settings.saved': 'Saved',
  'settings.not_saved': 'Not saved: {error}',
  'settings.unconfirmed': 'The server accepted the change, but this page has not received it yet. Reload to see it.',
  'settings.sections': 'Settings sections',
  'settings.back': 'Back to the app',
  'settings.title': 'Personal settings',
  'settings.loading': 'Loading…',
  'settings.unknown_section': 'There is no settings section “{section}”.',
} as const;
