/**
 * Says why a section's controls are disabled. It can take focus: with every control disabled
 * it is the one thing a keyboard user can reach, which also lets them scroll the section.
 */
export function ReadOnlyNote({ text }: { text: string }) {
  return (
    <p className="settings-note" tabIndex={0} role="note" data-testid="read-only-note">
      {text}
    </p>
  );
}
