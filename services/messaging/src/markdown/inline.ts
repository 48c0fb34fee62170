/**
 * Inline rules where the family's Markdown differs from CommonMark: `_` never emphasises,
 * `~~` strikes through within a line whatever the spaces, code spans keep their spaces, and
 * `***x***` is strong outside emphasis.
 */
import type { CoreRule, InlineRule } from './md-types';

/** `_` never emphasises in the family's Markdown (`_foo_`, `__foo__` stay as typed). */
export const underscores: InlineRule = (state, silent) => {
  if (state.src.charCodeAt(state.pos) !== 0x5f /* _ */) return false;
  let end = state.pos;
  while (state.src.charCodeAt(end) === 0x5f) end++;
  if (!silent) state.push('text', '', 0).content = state.src.slice(state.pos, end);
  state.pos = end;
  return true;
};

/**
 * `~~text~~` within a line, not touching a third `~`, the family's `<del>` (markdown-it's
 * own rule wants flanking delimiters, so `~~ a ~~` would stay text there).
 */
const STRIKE = /^~~([^~\n]+?)~~(?!~)/;
export const strikethrough: InlineRule = (state, silent) => {
  if (!state.src.startsWith('~~', state.pos) || state.src[state.pos - 1] === '~') return false;
  const m = STRIKE.exec(state.src.slice(state.pos, state.posMax));
  if (!m) return false;
  if (!silent) {
    const end = state.pos + 2 + m[1]!.length;
    const max = state.posMax;
    state.push('s_open', 'del', 1);
    state.pos += 2;
    state.posMax = end;
    state.md.inline.tokenize(state);
    state.posMax = max;
    state.push('s_close', 'del', -1);
  }
  state.pos += silent ? m[0].length : 2;
  return true;
};

/** A code span: a run of backticks up to the next run of the same length, spaces kept. */
export const codeSpan: InlineRule = (state, silent) => {
  if (state.src.charCodeAt(state.pos) !== 0x60 /* ` */) return false;
  const start = state.pos;
  let pos = start;
  while (state.src.charCodeAt(pos) === 0x60) pos++;
  const ticks = state.src.slice(start, pos);
  let search = pos;
  while (search < state.posMax) {
    const at = state.src.indexOf(ticks, search);
    if (at < 0 || at >= state.posMax) break;
    let end = at + ticks.length;
    if (state.src.charCodeAt(end) === 0x60) {
      while (state.src.charCodeAt(end) === 0x60) end++;
      search = end;
      continue;
    }
    if (!silent) {
      const token = state.push('code_inline', 'code', 0);
      token.markup = ticks;
      token.content = state.src.slice(pos, at).replace(/\n/g, ' ');
    }
    state.pos = end;
    return true;
  }
  if (!silent) state.pending += ticks;
  state.pos = pos;
  return true;
};

/** `***x***` as `<strong><em>x</em></strong>` (CommonMark nests them the other way round). */
export const strongOutsideEmphasis: CoreRule = (state) => {
  for (const block of state.tokens) {
    const c = block.children;
    if (block.type !== 'inline' || !c) continue;
    // Emphasis leaves empty text tokens where its delimiters were: they do not separate tags.
    const next = (i: number) => {
      let j = i + 1;
      while (c[j]?.type === 'text' && c[j]!.content === '') j++;
      return j;
    };
    for (let i = 0; i < c.length; i++) {
      const inner = next(i);
      if (c[i]!.type !== 'em_open' || c[inner]?.type !== 'strong_open') continue;
      const close = c.findIndex((t, j) => j > inner && t.type === 'strong_close' && t.level === c[inner]!.level);
      const outer = next(close);
      if (close < 0 || c[outer]?.type !== 'em_close') continue;
      for (const [x, y] of [[i, inner], [close, outer]] as const) {
        const a = c[x]!;
        const b = c[y]!;
        [a.type, b.type] = [b.type, a.type];
        [a.tag, b.tag] = [b.tag, a.tag];
        [a.markup, b.markup] = [b.markup, a.markup];
      }
    }
  }
};
