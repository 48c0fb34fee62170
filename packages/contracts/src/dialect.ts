/**
 * The family's clients name the server's own extra emoji `zulip_extra_emoji`; the spec names it
 * `svc_extra_emoji`. Rows and events store the spec's name; what a client is sent follows the
 * client: one of the family's (speaksFamilyDialect) gets the family's name, any other client the
 * spec's. Both are accepted on input (ADR 0005).
 */
export const SPEC_EXTRA_EMOJI_TYPE = 'svc_extra_emoji';
export const FAMILY_EXTRA_EMOJI_TYPE = 'zulip_extra_emoji';

/**
 * A client named Zulip-something: the apps (`ZulipMobile/27.2 (Android 14)`, `ZulipFlutter/…`,
 * `ZulipElectron/…`) and the bindings' defaults (`ZulipPython/…`, `ZulipTerminal/…`, and bots
 * such as `ZulipHelloworldBot (Linux; 6.1)`, which carry no version).
 */
const FAMILY_APP = /^Zulip[A-Za-z]+(?:\/| \(|$)/;

/**
 * The family's Python bindings, whatever client name their user passed: they always send
 * `<client name> (<system>; <release>)` and nothing after it. Browsers and other HTTP libraries
 * either have more after their first parenthesis or none.
 */
const PYTHON_BINDINGS = /^[^()]+ \([^();]*; [^()]*\)$/;

/** Whether a client is one of the family's, by the User-Agent its code really sends. */
export function speaksFamilyDialect(userAgent: string | undefined): boolean {
  if (userAgent === undefined) return false;
  return FAMILY_APP.test(userAgent) || PYTHON_BINDINGS.test(userAgent);
}

/** reaction_type as stored, whichever name the client sent. */
export function storedEmojiType(type: string): string {
  return type === FAMILY_EXTRA_EMOJI_TYPE ? SPEC_EXTRA_EMOJI_TYPE : type;
}

// JSON.stringify writes a key and its string value with no space between them, and escapes every
// quote inside a string, so this text only ever occurs as an actual reaction_type member: message
// content that quotes it is serialised as `\"reaction_type\":...` and stays untouched.
const SPEC_MEMBER = `"reaction_type":"${SPEC_EXTRA_EMOJI_TYPE}"`;
const FAMILY_MEMBER = `"reaction_type":"${FAMILY_EXTRA_EMOJI_TYPE}"`;

/**
 * A serialised response for a client of the family: each `reaction_type` of the extra emoji
 * renamed. Working on the serialised text keeps the cost a single scan, with no copy of large
 * responses (register, message batches) when no extra emoji is in them.
 */
export function toFamilyDialect(json: string): string {
  return json.includes(SPEC_MEMBER) ? json.split(SPEC_MEMBER).join(FAMILY_MEMBER) : json;
}

/** A serialised response in the dialect of the client that sent `userAgent`. */
export function inClientDialect(json: string, userAgent: string | undefined): string {
  return speaksFamilyDialect(userAgent) ? toFamilyDialect(json) : json;
}
