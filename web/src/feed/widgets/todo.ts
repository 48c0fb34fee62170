/**
 * A to-do list's state, reduced from its submessages as the family's todo widget does: tasks
 * keyed `<idx>,<sender>` (note the order, unlike polls; the /todo command's own as `<i>,canned`),
 * a task whose name is taken ignored, `strike` toggling completion, the title changed only by
 * the list's author.
 */
import type { WidgetEvent } from './submessages';

export interface TodoTask {
  key: string;
  task: string;
  desc: string;
  completed: boolean;
}

export interface TodoState {
  title: string;
  tasks: TodoTask[];
  /** The viewer's last idx; a new task takes the next one. */
  myIdx: number;
}

const MAX_IDX = 1000;

export function reduceTodo(extra: Record<string, unknown> | null, events: readonly WidgetEvent[], authorId: number, selfId: number): TodoState {
  let title = typeof extra?.task_list_title === 'string' ? extra.task_list_title : '';
  const tasks = new Map<string, TodoTask>();
  let myIdx = 1;
  const add = (sender: number | 'canned', idx: number, task: string, desc: string, completed: boolean) => {
    if (!Number.isInteger(idx) || idx < 0 || idx > MAX_IDX) return;
    const key = `${idx},${sender}`;
    if (![...tasks.values()].some((x) => x.task === task)) tasks.set(key, { key, task, desc, completed });
    if (sender === selfId && myIdx <= idx) myIdx = idx + 1;
  };
  const canned = Array.isArray(extra?.tasks) ? extra.tasks : [];
  canned.forEach((x: unknown, i) => {
    const t = x as { task?: unknown; desc?: unknown };
    if (typeof t?.task === 'string') add('canned', i, t.task, typeof t.desc === 'string' ? t.desc : '', false);
  });
  for (const { senderId, data } of events) {
    if (data.type === 'new_task' && typeof data.key === 'number' && typeof data.task === 'string') {
      add(senderId, data.key, data.task, typeof data.desc === 'string' ? data.desc : '', data.completed === true);
    } else if (data.type === 'strike' && typeof data.key === 'string') {
      const item = tasks.get(data.key);
      if (item) tasks.set(data.key, { ...item, completed: !item.completed });
    } else if (data.type === 'new_task_list_title' && typeof data.title === 'string' && senderId === authorId) {
      title = data.title;
    }
  }
  return { title, tasks: [...tasks.values()], myIdx };
}

/** The family counts the viewer's idx up before using it, so the first new task is idx 2. */
export function newTaskEvent(state: TodoState, task: string, desc: string): { type: 'new_task'; key: number; task: string; desc: string; completed: false } | null {
  const name = task.trim();
  if (!name || state.tasks.some((x) => x.task === name)) return null;
  return { type: 'new_task', key: state.myIdx + 1, task: name, desc: desc.trim(), completed: false };
}

export function strikeEvent(key: string): { type: 'strike'; key: string } {
  return { type: 'strike', key };
}

export function titleEvent(title: string): { type: 'new_task_list_title'; title: string } {
  return { type: 'new_task_list_title', title: title.trim() };
}
