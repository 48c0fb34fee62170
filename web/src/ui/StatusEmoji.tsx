/** The emoji of a person's status (Unicode, the realm's own, or :zulip:), with its text as the label. */
import { emojiChars } from '../emoji/data';
import { useAppState } from '../state/store';
import type { UserStatus } from '../people/hooks';

export function StatusEmoji({ status, withText = false }: { status: UserStatus; withText?: boolean }) {
  const realmEmoji = useAppState((s) => s.reg?.realm_emoji);
  const label = status.status_text || (status.emoji_name ? `:${status.emoji_name}:` : '');
  let emoji = null;
  if (status.emoji_code) {
    if (!status.reaction_type || status.reaction_type === 'unicode_emoji') emoji = <span className="status-emoji" aria-hidden={withText}>{emojiChars(status.emoji_code)}</span>;
    else {
      const url = status.reaction_type === 'zulip_extra_emoji' ? '/static/generated/emoji/images/emoji/unicode/zulip.png' : realmEmoji?.[status.emoji_code]?.source_url;
      if (url) emoji = <img className="status-emoji" src={url} alt={withText ? '' : `:${status.emoji_name}:`} width={16} height={16} />;
    }
  }
  if (!emoji && !(withText && status.status_text)) return null;
  return (
    <span className="user-status" title={label}>
      {emoji}
      {withText && status.status_text && <span className="status-text">{status.status_text}</span>}
    </span>
  );
}
