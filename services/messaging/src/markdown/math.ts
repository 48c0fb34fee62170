/**
 * TeX as the family's server renders it: KaTeX 0.16 (pinned to the family's version, whose
 * class names — `base`, `strut`, … — its clients know) with HTML and MathML, so that the
 * `<annotation encoding="application/x-tex">` the mobile app reads the source from is there.
 * Inline `$$…$$` gives `<span class="katex">`, a ```` ```math ```` fence one
 * `<span class="katex-display">` per paragraph, all in one `<p>`. TeX KaTeX cannot parse is
 * shown as the family shows it: `<span class="tex-error">` around the source.
 */
import katex from 'katex';
import type { InlineRule } from './md-types';

/** KaTeX's HTML, or null when the source is not TeX KaTeX accepts. */
export function renderTex(source: string, displayMode: boolean): string | null {
  try {
    return katex.renderToString(source, { displayMode, throwOnError: true, strict: 'ignore', output: 'htmlAndMathml' });
  } catch {
    return null;
  }
}

/** Text escaped as the family's Markdown serializer escapes element text. */
const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** As Django's escape(), which the family's math fence uses for its error text. */
const escapeDjango = (s: string) => escapeText(s).replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

/**
 * `$$…$$` on one line, not touching a third `$`, not starting with `_` (so `$$_$$` stays
 * text), `\$` allowed inside: the family's inline math pattern.
 */
const INLINE_MATH = /^\$\$([^\n_$](?:\\\$|[^$\n])*)\$\$(?!\$)/;

export const inlineMath: InlineRule = (state, silent) => {
  if (!state.src.startsWith('$$', state.pos)) return false;
  if (state.pos > 0 && state.src[state.pos - 1] === '$') return false;
  const m = INLINE_MATH.exec(state.src.slice(state.pos, state.posMax));
  if (!m) return false;
  if (!silent) {
    const token = state.push('html_inline', '', 0);
    token.content = renderTex(m[1]!, false) ?? `<span class="tex-error">${escapeText(m[0])}</span>`;
  }
  state.pos += m[0].length;
  return true;
};

/** A ```` ```math ```` fence's body: each paragraph rendered apart, in one paragraph. */
export function mathFenceHtml(text: string): string {
  const parts = text.split('\n\n').map((paragraph) => renderTex(paragraph, true) ?? `<span class="tex-error">${escapeDjango(paragraph)}</span>`);
  return `<p>${parts.join('\n\n')}</p>\n`;
}
