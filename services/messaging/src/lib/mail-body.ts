/**
 * Turning a received mail into a message's topic and Markdown, with the family's email gateway
 * rules (zerver/lib/email_mirror.py): the text part is preferred unless the address says
 * `prefer-html`; quoted history is cut unless `include-quotes` (or the mail is a forward); a
 * signature after a lone `--` line is cut unless `include-footer`; `show-sender` starts the
 * message with the From line.
 */
import type { ParsedMail } from 'mailparser';
import planer from 'planer';
import TurndownService from 'turndown';
import { LIMITS } from '@chat/contracts';
import type { ChannelAddressOptions } from '@chat/realm';

/** Subject prefixes of replies and forwards (Re:, AW:, Fwd:, [Fwd: ...]). */
const REPLY_PREFIX = /([[(] *)?\b(RE|AW|FWD?) *([-:;)\]][ :;\])-]*|$)|\]+ *$/gim;
const FORWARD_PREFIX = /^([[(] *)?\b(FWD?) *([-:;)\]][ :;\])-]*|$)|\]+ *$/i;

export function topicOfSubject(subject: string | undefined): string {
  const stripped = (subject ?? '').replace(REPLY_PREFIX, '').trim();
  // Control and other unprintable characters are dropped rather than refusing the mail.
  const printable = [...stripped].filter((c) => !/[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}]/u.test(c)).join('');
  const topic = printable || 'Email with no subject';
  const chars = [...topic];
  return chars.length > LIMITS.maxTopicLength ? `${chars.slice(0, LIMITS.maxTopicLength - 3).join('')}...` : topic;
}

export function isForwarded(subject: string | undefined): boolean {
  return FORWARD_PREFIX.test(subject ?? '');
}

/** What the filter reads of turndown's DOM node (this service is built without the DOM's types). */
interface ElementLike {
  nodeName: string;
  getAttribute(name: string): string | null;
}

/** Quoted history in HTML mail: the containers mail programs put a quoted message in. */
function isQuoteContainer(node: ElementLike): boolean {
  const cls = ` ${node.getAttribute('class') ?? ''} `;
  if (node.nodeName === 'BLOCKQUOTE') return true;
  return / gmail_quote | moz-cite-prefix | yahoo_quoted | protonmail_quote /.test(cls) || node.getAttribute('id') === 'divRplyFwdMsg' || node.getAttribute('id') === 'appendonsend';
}

function htmlToMarkdown(html: string, includeQuotes: boolean): string {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '*' });
  turndown.remove(['style', 'script', 'head', 'title']);
  // A rule rather than remove(): removals come after the built-in rules, and blockquote is one.
  if (!includeQuotes) turndown.addRule('quotedHistory', { filter: (node) => isQuoteContainer(node as unknown as ElementLike), replacement: () => '' });
  return turndown.turndown(html);
}

/** The family's filter_footer: only a mail with exactly one `--` line is cut there. */
export function withoutFooter(text: string): string {
  const separators = text.split('\n').filter((line) => line.trim() === '--');
  if (separators.length !== 1) return text;
  return text.split(/^\s*--\s*$/m, 2)[0]!.trim();
}

/** The body as Markdown, before attachments; `(No email body)` when nothing is left. */
export function mailBodyMarkdown(mail: ParsedMail, options: ChannelAddressOptions): string {
  const includeQuotes = options.includeQuotes ?? false;
  const text = typeof mail.text === 'string' && mail.text.trim() ? mail.text : null;
  const html = typeof mail.html === 'string' && mail.html.trim() ? mail.html : null;
  const fromText = () => (includeQuotes ? text! : planer.extractFromPlain(text!));
  // The HTML's own quote containers go first; a reply line ("On … wrote:") left above them goes with planer.
  const fromHtml = () => (includeQuotes ? htmlToMarkdown(html!, true) : planer.extractFromPlain(htmlToMarkdown(html!, false)));
  const preferText = options.preferText ?? true;
  let body = (preferText ? (text !== null ? fromText() : html !== null ? fromHtml() : '') : html !== null ? fromHtml() : text !== null ? fromText() : '').replace(/\0/g, '');
  if (!options.includeFooter) body = withoutFooter(body);
  if (!body.endsWith('\n')) body += '\n';
  return body.trim() ? body : '(No email body)';
}

/** Cuts the body so that the From line and the attachment links always fit in one message. */
export function composeContent(parts: { preamble: string; body: string; postamble: string }): string {
  const room = LIMITS.maxMessageLength - parts.preamble.length - parts.postamble.length;
  const marker = '\n[message truncated]';
  const body = parts.body.length > room ? parts.body.slice(0, Math.max(0, room - marker.length)) + marker : parts.body;
  return parts.preamble + body + parts.postamble;
}
