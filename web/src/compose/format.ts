/**
 * The formatting buttons and their shortcuts (Ctrl+B, Ctrl+I, Ctrl+Shift+L, Ctrl+Shift+X),
 * as text edits on the textarea's value and selection. Wrapping a selection that is already
 * wrapped unwraps it, as the family's compose box does. Pure, so it is tested without a DOM.
 */

export type FormatKind = 'bold' | 'italic' | 'strikethrough' | 'link' | 'code' | 'quote' | 'spoiler' | 'math' | 'poll' | 'todo';

export interface TextState {
  value: string;
  start: number;
  end: number;
}

/** The placeholder words inserted (translated by the caller). */
export interface FormatLabels {
  url: string;
  spoilerHeader: string;
  pollQuestion: string;
  pollOption: string;
  todoTitle: string;
  todoTask: string;
}

export const DEFAULT_LABELS: FormatLabels = { url: 'url', spoilerHeader: 'Header', pollQuestion: 'Question', pollOption: 'Option', todoTitle: 'Task list', todoTask: 'Task' };

function wrapToggle(s: TextState, marker: string): TextState {
  const { value, start, end } = s;
  const before = value.slice(0, start);
  const sel = value.slice(start, end);
  const after = value.slice(end);
  const n = marker.length;
  // `*` must not be mistaken for half of `**`: only a run of exactly n (or 3 for bold+italic) counts.
  const runBefore = /\**$/.exec(before)![0].length;
  const runAfter = /^\**/.exec(after)![0].length;
  const wrappedOutside = marker.startsWith('*') ? runBefore >= n && runAfter >= n && (runBefore === n || runBefore === 3) && (runAfter === n || runAfter === 3) : before.endsWith(marker) && after.startsWith(marker);
  if (wrappedOutside && sel) {
    return { value: before.slice(0, -n) + sel + after.slice(n), start: start - n, end: end - n };
  }
  if (sel.length >= 2 * n && sel.startsWith(marker) && sel.endsWith(marker) && !(marker === '*' && sel.startsWith('**') && !sel.startsWith('***'))) {
    const inner = sel.slice(n, -n);
    return { value: before + inner + after, start, end: start + inner.length };
  }
  return { value: before + marker + sel + marker + after, start: start + n, end: end + n };
}

function fence(s: TextState, header: string, placeholderInHeader?: string): TextState {
  const { value, start, end } = s;
  const before = value.slice(0, start);
  const sel = value.slice(start, end);
  const after = value.slice(end);
  const lead = before === '' || before.endsWith('\n') ? '' : '\n';
  const trail = after === '' || after.startsWith('\n') ? '' : '\n';
  const open = `${lead}\`\`\`${header}\n`;
  const body = `${before}${open}${sel}\n\`\`\`${trail}${after}`;
  if (placeholderInHeader) {
    const at = before.length + lead.length + 3 + header.length - placeholderInHeader.length;
    return { value: body, start: at, end: at + placeholderInHeader.length };
  }
  const at = before.length + open.length;
  return { value: body, start: at, end: at + sel.length };
}

function isUrl(text: string): boolean {
  return /^https?:\/\/\S+$/.test(text.trim());
}

export function applyFormat(kind: FormatKind, s: TextState, labels: FormatLabels = DEFAULT_LABELS): TextState {
  const sel = s.value.slice(s.start, s.end);
  const before = s.value.slice(0, s.start);
  const after = s.value.slice(s.end);
  switch (kind) {
    case 'bold':
      return wrapToggle(s, '**');
    case 'italic':
      return wrapToggle(s, '*');
    case 'strikethrough':
      return wrapToggle(s, '~~');
    case 'link': {
      if (!sel || isUrl(sel)) {
        // The link's words go between the brackets, where the cursor waits.
        const url = sel.trim() || labels.url;
        const value = `${before}[](${url})${after}`;
        const at = before.length + 1;
        return { value, start: at, end: at };
      }
      const value = `${before}[${sel}](${labels.url})${after}`;
      const at = before.length + sel.length + 3;
      return { value, start: at, end: at + labels.url.length };
    }
    case 'code':
      if (sel && !sel.includes('\n')) return wrapToggle(s, '`');
      return fence(s, '');
    case 'quote':
      return fence(s, 'quote');
    case 'spoiler':
      return fence(s, `spoiler ${labels.spoilerHeader}`, labels.spoilerHeader);
    case 'math':
      if (sel && !sel.includes('\n')) return wrapToggle(s, '$$');
      return fence(s, 'math');
    case 'poll':
      return widget(s, labels.pollQuestion, [`${labels.pollOption} 1`, `${labels.pollOption} 2`], 'poll');
    case 'todo':
      return widget(s, labels.todoTitle, [`${labels.todoTask} 1`, `${labels.todoTask} 2`], 'todo');
  }
}

/**
 * A poll or to-do list must begin the message: the command goes first (with the selection,
 * if any, as its title) and the title is selected for typing over.
 */
function widget(s: TextState, title: string, lines: string[], command: string): TextState {
  const sel = s.value.slice(s.start, s.end).trim();
  const rest = sel ? s.value.slice(0, s.start) + s.value.slice(s.end) : s.value;
  const heading = sel && !sel.includes('\n') ? sel : title;
  const value = `/${command} ${heading}\n${lines.join('\n')}${rest.trim() ? `\n${rest.trim()}` : ''}`;
  const at = command.length + 2;
  return { value, start: at, end: at + heading.length };
}

/** The shortcut's format for a keydown, or null. */
export function formatForKey(e: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }): FormatKind | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const key = e.key.toLowerCase();
  if (!e.shiftKey && key === 'b') return 'bold';
  if (!e.shiftKey && key === 'i') return 'italic';
  if (e.shiftKey && key === 'l') return 'link';
  if (e.shiftKey && key === 'x') return 'strikethrough';
  return null;
}

/** Whether this Enter sends, given the person's `enter_sends` (the family's rule). */
export function enterSends(e: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean; isComposing?: boolean }, enterSendsSetting: boolean): boolean {
  if (e.key !== 'Enter' || e.isComposing) return false;
  const nonShiftModifier = e.ctrlKey || e.metaKey || e.altKey;
  if (enterSendsSetting) return !nonShiftModifier && !e.shiftKey;
  return nonShiftModifier;
}
