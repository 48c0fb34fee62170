import hljs from 'highlight.js';
import type { Md, RenderRule } from './md-types';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Fenced code the way clients of this API style it: a `codehilite` div naming the language,
 * highlighted when the language is known. ```quote, ```spoiler and ```math fences are handled
 * by the dialect before they reach this rule.
 */
export function highlightFence(_md: Md): RenderRule {
  return (tokens, idx) => {
    const token = tokens[idx];
    const lang = token.info.trim().split(/\s+/)[0] ?? '';
    const known = lang ? hljs.getLanguage(lang) : undefined;
    const body = known ? hljs.highlight(token.content, { language: lang, ignoreIllegals: true }).value : escape(token.content);
    const attr = lang ? ` data-code-language="${escape(known?.name ?? lang)}"` : '';
    return `<div class="codehilite"${attr}><pre><span></span><code>${body}</code></pre></div>\n`;
  };
}
