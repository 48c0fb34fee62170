/**
 * Narrow filters of narrowed queues (register's `narrow`), applied to message events the way
 * clients of this API expect: every term must match; `-operator` negates a term. Terms name
 * channels and users by name or email, or by id.
 */
type Message = Record<string, unknown>;

function sameText(a: unknown, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

function recipients(m: Message): Array<{ id: number; email: string }> {
  return Array.isArray(m.display_recipient) ? (m.display_recipient as Array<{ id: number; email: string }>) : [];
}

function userMatches(u: { id?: number; email?: string }, operand: string): boolean {
  return String(u.id) === operand || sameText(u.email, operand);
}

function termMatches(operator: string, operand: string, m: Message, flags: string[]): boolean {
  switch (operator) {
    case 'stream':
    case 'channel':
      return m.type === 'stream' && (sameText(m.display_recipient, operand) || String(m.stream_id) === operand);
    case 'topic':
    case 'subject':
      return m.type === 'stream' && sameText(m.subject, operand);
    case 'sender':
      return userMatches({ id: m.sender_id as number, email: m.sender_email as string }, operand);
    case 'is':
      switch (operand) {
        case 'dm':
        case 'private':
          return m.type === 'private';
        case 'starred':
          return flags.includes('starred');
        case 'mentioned':
          return flags.includes('mentioned') || flags.includes('wildcard_mentioned');
        case 'alerted':
          return flags.includes('has_alert_word');
        case 'unread':
          return !flags.includes('read');
        default:
          return true;
      }
    case 'dm':
    case 'pm-with': {
      if (m.type !== 'private') return false;
      const wanted = operand.split(',').map((s) => s.trim()).filter(Boolean);
      const others = recipients(m).filter((u) => u.id !== m.sender_id || recipients(m).length === 1);
      return wanted.every((w) => recipients(m).some((u) => userMatches(u, w))) && others.length >= wanted.length;
    }
    case 'dm-including':
    case 'group-pm-with':
      return m.type === 'private' && recipients(m).some((u) => userMatches(u, operand));
    case 'search':
      return typeof m.content === 'string' && m.content.toLowerCase().includes(operand.toLowerCase());
    default:
      // Unknown operators do not filter, like unknown event types do not.
      return true;
  }
}

export function matchesNarrow(narrow: Array<[string, string]>, m: Message, flags: string[]): boolean {
  return narrow.every(([rawOperator, operand]) => {
    const negated = rawOperator.startsWith('-');
    const operator = negated ? rawOperator.slice(1) : rawOperator;
    return termMatches(operator, String(operand), m, flags) !== negated;
  });
}
