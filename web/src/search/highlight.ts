/**
 * Search results show the server's highlighting: when a narrow has search words the server
 * sends `match_content` and `match_subject`, the message's HTML and topic with
 * `<span class="highlight">` around what matched. The same message shown in a view without
 * search words shows its plain content, so the view's terms decide.
 */
import type { Message } from '@chat/client';

type Terms = ReadonlyArray<{ operator: string; negated?: boolean }>;

function isSearch(terms: Terms | undefined): boolean {
  return terms === undefined || terms.some((t) => t.operator === 'search' && !t.negated);
}

/** The HTML to show for a message's body in a view with these terms. */
export function displayContent(message: Pick<Message, 'content' | 'match_content'>, terms?: Terms): string {
  return isSearch(terms) && message.match_content ? message.match_content : message.content;
}

/** The topic as HTML (escaped, with highlights in a search), for a view with these terms. */
export function displayTopicHtml(message: Pick<Message, 'subject' | 'match_subject'>, terms?: Terms): string {
  return isSearch(terms) && message.match_subject ? message.match_subject : escapeHtml(message.subject);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
