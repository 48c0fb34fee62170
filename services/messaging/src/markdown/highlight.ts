/**
 * Code blocks as the family's server writes them (its fenced_code + Pygments' HtmlFormatter):
 *
 *   <div class="codehilite" data-code-language="Python"><pre><span></span><code>…\n</code></pre></div>
 *
 * with only Pygments' short token classes inside (pygments.ts). The tokens come from Prism
 * (`Prism.tokenize`, a token stream, not HTML), flattened to one level of spans: the family's
 * clients read `<code>` as a flat run of text and classed spans.
 *
 * `data-code-language` is the Pygments lexer's name for what was typed (`py` → `Python`), the
 * typed name when Pygments knows no such lexer (and then the block is plain, as the family's
 * would be), and absent without a language.
 */
import Prism from 'prismjs';
import loadLanguages from 'prismjs/components/index';
import components from 'prismjs/components.json';
import pygments from './data/pygments-lexers.json';
import { classOfToken, refineClass } from './pygments';

loadLanguages.silent = true;

const LEXER_NAMES: Record<string, string> = (pygments as { lexers: Record<string, string> }).lexers;

/** Every alias Pygments gives a lexer, by the lexer's name. */
const LEXER_ALIASES = new Map<string, string[]>();
for (const [alias, name] of Object.entries(LEXER_NAMES)) LEXER_ALIASES.set(name, [...(LEXER_ALIASES.get(name) ?? []), alias]);

/** Prism's language ids by id and alias. */
const PRISM_IDS = new Map<string, string>();
for (const [id, meta] of Object.entries((components as { languages: Record<string, { alias?: string | string[] }> }).languages)) {
  if (id === 'meta') continue;
  PRISM_IDS.set(id, id);
  for (const alias of meta.alias === undefined ? [] : Array.isArray(meta.alias) ? meta.alias : [meta.alias]) PRISM_IDS.set(alias, id);
}

/** The Pygments lexer name for a typed language, or undefined when Pygments has none. */
export function pygmentsLexerName(lang: string): string | undefined {
  return LEXER_NAMES[lang.toLowerCase()];
}

/** The Prism grammar for a Pygments lexer, tried by the typed name, then by the lexer's other aliases. */
function grammarFor(lang: string, lexer: string): Prism.Grammar | undefined {
  const candidates = [lang, ...(LEXER_ALIASES.get(lexer) ?? []), lexer.toLowerCase()];
  for (const candidate of candidates) {
    const id = PRISM_IDS.get(candidate);
    if (!id) continue;
    // Loaded on first use: all of Prism's languages take seconds to load.
    if (!Prism.languages[id]) loadLanguages([id]);
    const grammar = Prism.languages[id];
    if (grammar) return grammar;
  }
  return undefined;
}

/** As Pygments' HtmlFormatter escapes text. */
const escapeCode = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const textOf = (stream: Prism.TokenStream): string =>
  typeof stream === 'string' ? stream : Array.isArray(stream) ? stream.map(textOf).join('') : textOf(stream.content);

/** The token stream as runs of [class or null, text], nested tokens flattened. */
function flatten(stream: Prism.TokenStream, inherited: string | null, out: Array<[string | null, string]>): void {
  if (typeof stream === 'string') {
    out.push([inherited, stream]);
    return;
  }
  if (Array.isArray(stream)) {
    for (const part of stream) flatten(part, inherited, out);
    return;
  }
  const own = classOfToken(stream.type, stream.alias);
  const cls = own ? refineClass(own, textOf(stream.content)) : inherited;
  flatten(stream.content, cls, out);
}

/** Runs as HTML: same-class neighbours merged, spans closed at line ends as Pygments does. */
function runsHtml(runs: Array<[string | null, string]>): string {
  const merged: Array<[string | null, string]> = [];
  for (const [cls, text] of runs) {
    const last = merged[merged.length - 1];
    if (last && last[0] === cls) last[1] += text;
    else merged.push([cls, text]);
  }
  return merged
    .map(([cls, text]) =>
      cls === null
        ? escapeCode(text)
        : text
            .split('\n')
            .map((line) => (line ? `<span class="${cls}">${escapeCode(line)}</span>` : ''))
            .join('\n'),
    )
    .join('');
}

/** Highlighted HTML of `code` in the Pygments lexer `lexer`, plain when no grammar fits. */
function highlightBody(code: string, lang: string, lexer: string | undefined): string {
  const grammar = lexer ? grammarFor(lang, lexer) : undefined;
  if (!grammar) return escapeCode(code);
  const runs: Array<[string | null, string]> = [];
  flatten(Prism.tokenize(code, grammar), null, runs);
  return runsHtml(runs);
}

/**
 * A code block's first line can name its language when the fence does not: `#!python`,
 * `#!/usr/bin/python`, `:::python` (the family's CodeHilite header; the line stays in the block).
 */
const SHEBANG = /^(?:(?:::+)|(?:#!))(?:(?:\/\w+)*[/ ])?([\w#.+-]*)/;

/**
 * The family's code block for `code` (trailing spaces already cut from each line), `lang` as
 * typed after the fence (lower case) or empty.
 */
export function codeBlockHtml(code: string, lang: string): string {
  const src = code.replace(/^\n+|\n+$/g, '');
  let lexer = lang ? pygmentsLexerName(lang) : undefined;
  let highlightAs = lang;
  if (!lang) {
    const header = SHEBANG.exec(src.split('\n', 1)[0]!);
    if (header?.[1]) {
      highlightAs = header[1].toLowerCase();
      lexer = pygmentsLexerName(highlightAs);
    }
  }
  const attr = lang ? ` data-code-language="${escapeCode(lexer ?? lang)}"` : '';
  return `<div class="codehilite"${attr}><pre><span></span><code>${highlightBody(src, highlightAs, lexer)}\n</code></pre></div>`;
}
