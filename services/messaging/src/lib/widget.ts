/**
 * Widgets (polls and to-do lists) as the family's server makes them: the content of a message
 * that starts with `/poll` or `/todo` becomes the widget's first submessage, and later
 * submessages are checked against the widget's kind.
 */
import { errors } from '@chat/contracts';

export type WidgetContent = { widget_type: 'poll' | 'todo'; extra_data: Record<string, unknown> };

/** Python's str.splitlines(): the line breaks it knows, no empty line after a final break. */
function splitLines(text: string): string[] {
  // eslint-disable-next-line no-control-regex -- Python counts these separators as line breaks
  const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A list item's marker ("- ", "* ") is not part of the option. */
const stripMarker = (line: string) => line.trim().replace(/^\s*[-*]?\s*/, '');

function pollData(rest: string): Record<string, unknown> {
  const lines = splitLines(rest);
  let question = '';
  if (lines.length && lines[0]) question = lines.shift()!.trim();
  const options = lines.map(stripMarker).filter((o) => o.length > 0);
  return { question, options };
}

function todoData(rest: string): Record<string, unknown> {
  const lines = splitLines(rest);
  let title = '';
  if (lines.length && lines[0]) title = lines.shift()!.trim();
  const tasks = lines
    .map(stripMarker)
    .filter((t) => t.length > 0)
    .map((t) => {
      // A task and its description are separated by the first ": ".
      const at = t.indexOf(': ');
      return at < 0 ? { task: t.trim(), desc: '' } : { task: t.slice(0, at).trim(), desc: t.slice(at + 2).trim() };
    });
  return { task_list_title: title, tasks };
}

/** The widget a message's content asks for, or null. */
export function widgetContentOf(content: string): WidgetContent | null {
  const first = content.split(/\s+/)[0] ?? '';
  if (first !== '/poll' && first !== '/todo') return null;
  const rest = content.replace(first, '');
  return first === '/poll' ? { widget_type: 'poll', extra_data: pollData(rest) } : { widget_type: 'todo', extra_data: todoData(rest) };
}

const pyString = (s: string) => JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** JSON text exactly as Python's json.dumps writes it (", " and ": ", ASCII only), as clients have always received it. */
export function pyJsonDumps(value: unknown): string {
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${pyString(k)}: ${pyJsonDumps(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The kind of widget a message carries, from its first "widget" submessage. */
export function widgetTypeOf(firstWidgetContent: string | undefined): string | null {
  if (firstWidgetContent === undefined) return null;
  try {
    const data = JSON.parse(firstWidgetContent) as { widget_type?: unknown };
    return typeof data?.widget_type === 'string' ? data.widget_type : null;
  } catch {
    return null;
  }
}

const MAX_IDX = 1000;
type Check = (name: string, v: unknown) => void;
const str: Check = (name, v) => {
  if (typeof v !== 'string') throw errors.badRequest(`${name} is not a string`);
};
const int: Check = (name, v) => {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw errors.badRequest(`${name} is not an integer`);
};
const bool: Check = (name, v) => {
  if (typeof v !== 'boolean') throw errors.badRequest(`${name} is not a boolean`);
};
const intIn = (allowed: number[]): Check => (name, v) => {
  int(name, v);
  if (!allowed.includes(v as number)) throw errors.badRequest(`Invalid ${name}`);
};
const range: Check = (name, v) => {
  int(name, v);
  if ((v as number) < 0) throw errors.badRequest(`${name} is too small`);
  if ((v as number) > MAX_IDX) throw errors.badRequest(`${name} is too large`);
};

/** The family's check_dict_only: every listed key present and valid, no other key. */
function dictOnly(name: string, data: Record<string, unknown>, keys: Array<[string, Check]>): void {
  for (const [k, check] of keys) {
    if (!(k in data)) throw errors.badRequest(`${k} key is missing from ${name}`);
    check(`${name}["${k}"]`, data[k]);
  }
  const extra = Object.keys(data).filter((k) => !keys.some(([key]) => key === k));
  if (extra.length) throw errors.badRequest(`Unexpected arguments: ${extra.join(', ')}`);
}

function typed(name: string, data: unknown): Record<string, unknown> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw errors.badRequest(`${name} is not a dict`);
  const d = data as Record<string, unknown>;
  if (!('type' in d)) throw errors.badRequest(`type key is missing from ${name}`);
  str(`${name}["type"]`, d.type);
  return d;
}

export function checkPollData(data: unknown, isAuthor: boolean): void {
  const d = typed('poll data', data);
  if (d.type === 'vote') return dictOnly('poll data', d, [['type', str], ['key', str], ['vote', intIn([1, -1])]]);
  if (d.type === 'question') {
    if (!isAuthor) throw errors.badRequest("You can't edit a question unless you are the author.");
    return dictOnly('poll data', d, [['type', str], ['question', str]]);
  }
  if (d.type === 'new_option') return dictOnly('poll data', d, [['type', str], ['option', str], ['idx', range]]);
  throw errors.badRequest(`Unknown type for poll data: ${d.type as string}`);
}

export function checkTodoData(data: unknown, isAuthor: boolean): void {
  const d = typed('todo data', data);
  if (d.type === 'new_task') {
    return dictOnly('todo data', d, [['type', str], ['key', range], ['task', str], ['desc', str], ['completed', bool]]);
  }
  if (d.type === 'strike') return dictOnly('todo data', d, [['type', str], ['key', str]]);
  if (d.type === 'new_task_list_title') {
    if (!isAuthor) throw errors.badRequest("You can't edit the task list title unless you are the author.");
    return dictOnly('todo data', d, [['type', str], ['title', str]]);
  }
  throw errors.badRequest(`Unknown type for todo data: ${d.type as string}`);
}
