/**
 * The one check of an emoji a client names by name, code and type, for reactions and statuses
 * alike, with the family's texts (its zerver/lib/emoji.py check_emoji_request).
 */
import { emojiNameMatchesCode, isExtraEmoji, isUnicodeEmojiCode } from '.';

/** A realm's custom emoji as the check reads it. */
export interface CustomEmojiFacts {
  name: string;
  deactivated: boolean;
}

/**
 * What is wrong with the emoji (`name`, `code`, `type`) in the family's words, or null when it
 * is good. `customById` finds the realm's custom emoji with id `code` (null when there is none);
 * it is asked only for type `realm_emoji`.
 */
export async function emojiProblem(
  name: string,
  code: string,
  type: string,
  customById: (code: string) => Promise<CustomEmojiFacts | null>,
): Promise<string | null> {
  if (type === 'realm_emoji') {
    const custom = await customById(code);
    if (!custom) return 'Invalid custom emoji.';
    if (custom.name !== name) return 'Invalid custom emoji name.';
    if (custom.deactivated) return 'This custom emoji has been deactivated.';
    return null;
  }
  // The family's own extra emoji, under the type name clients of this server are told or the family's.
  if (type === 'svc_extra_emoji' || type === 'zulip_extra_emoji') {
    if (!isExtraEmoji(code)) return 'Invalid emoji code.';
    return name === code ? null : 'Invalid emoji name.';
  }
  if (type === 'unicode_emoji') {
    if (!isUnicodeEmojiCode(code)) return 'Invalid emoji code.';
    // Any of the code's names (canonical or alias) will do, as on the family's server.
    return emojiNameMatchesCode(name, code) ? null : 'Invalid emoji name.';
  }
  return 'Invalid emoji type.';
}
