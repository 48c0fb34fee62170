/**
 * Fenced and indented blocks, dispatched as the family's fenced_code does: ```` ```quote ````
 * (or `quoted`) and ```` ```spoiler header ```` hold Markdown, ```` ```math ```` holds TeX,
 * any other fence is code (```` ```tex ```` and ```` ```latex ```` included: TeX source,
 * highlighted). A fence without a language takes the realm's `default_code_block_language`.
 * Trailing spaces of each line are cut and an empty fence shows nothing, as there.
 */
import type { Md, RenderRule } from './md-types';
import { envOf } from './types';
import { codeBlockHtml } from './highlight';
import { mathFenceHtml } from './math';

/** The family's fence header: `lang`, `.lang` or `{.lang}`, then an optional header text. */
const FENCE_INFO = /^\{?\.?([a-zA-Z0-9_+\-./#]+)\s*([^ ~`][^~`]*?)?\}?$/;

function fenceInfo(info: string): { lang: string; header: string | null } {
  const m = FENCE_INFO.exec(info.trim());
  return m ? { lang: m[1]!.toLowerCase(), header: m[2]?.trim() || null } : { lang: '', header: null };
}

/** The block's lines with trailing whitespace cut, or null for an empty block. */
function blockText(content: string): string | null {
  const lines = content.replace(/\n$/, '').split('\n');
  if (content === '') return null;
  return lines.map((l) => l.trimEnd()).join('\n');
}

export function installFences(md: Md): void {
  const fence: RenderRule = (tokens, idx, _options, env) => {
    const e = envOf(env);
    const token = tokens[idx]!;
    const info = fenceInfo(token.info);
    const lang = info.lang || e.ctx.defaultCodeBlockLanguage.toLowerCase();
    const text = blockText(token.content);
    if (text === null) return '';
    switch (lang) {
      case 'quote':
      case 'quoted': {
        // Rendered apart, so the previews' rule learns it is inside a quote from env.
        e.quoteDepth++;
        try {
          return `<blockquote>\n${md.render(text, env)}</blockquote>\n`;
        } finally {
          e.quoteDepth--;
        }
      }
      case 'spoiler':
        return (
          `<div class="spoiler-block"><div class="spoiler-header">\n${info.header ? md.render(info.header, env) : ''}</div>` +
          `<div class="spoiler-content" aria-hidden="true">\n${md.render(text, env)}</div></div>\n`
        );
      case 'math':
        return mathFenceHtml(text);
      default:
        return `${codeBlockHtml(text, lang)}\n`;
    }
  };
  md.renderer.rules.fence = fence;
  // Indented code has no language: only a first-line `#!lang` names one, as in a bare fence.
  md.renderer.rules.code_block = (tokens, idx) => {
    const text = blockText(tokens[idx]!.content);
    return text === null ? '' : `${codeBlockHtml(text, '')}\n`;
  };
}
