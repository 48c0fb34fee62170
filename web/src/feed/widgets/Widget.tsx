/**
 * The interactive part of a poll or to-do message, drawn from its submessages (kept current by
 * `submessage` events); each click sends one submessage and the view changes when it comes back.
 */
import { useMemo, useRef, useState, type FormEvent } from 'react';
import type { Message } from '@chat/client';
import { t } from '../../i18n';
import { useAppState } from '../../state/store';
import { sendWidgetEvent } from '../actions';
import { newOptionEvent, questionEvent, reducePoll, voteEvent } from './poll';
import { widgetOf } from './submessages';
import { newTaskEvent, reduceTodo, strikeEvent, titleEvent } from './todo';

export function hasWidget(message: Message): boolean {
  const w = widgetOf(message);
  return !!w && (w.widgetType === 'poll' || w.widgetType === 'todo');
}

export function Widget({ message, selfId }: { message: Message; selfId: number }) {
  const w = useMemo(() => widgetOf(message), [message]);
  if (!w) return null;
  if (w.widgetType === 'poll') return <Poll message={message} selfId={selfId} />;
  if (w.widgetType === 'todo') return <Todo message={message} selfId={selfId} />;
  return null;
}

function useNames(): (ids: number[]) => string {
  const users = useAppState((s) => s.users);
  return (ids) => ids.map((id) => users.get(id)?.full_name ?? t('feed.unknown_user')).join(', ');
}

/** An inline editor for a poll's question or a list's title (their author only). */
function TitleEditor({ value, label, onSave }: { value: string; label: string; onSave: (v: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(value);
  if (!editing)
    return (
      <button type="button" className="widget-edit icon-button" aria-label={label} title={label} onClick={() => (setText(value), setEditing(true))}>
        ✎
      </button>
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() && text.trim() !== value) onSave(text);
    setEditing(false);
  };
  return (
    <form className="widget-inline-form" onSubmit={submit}>
      <input aria-label={label} value={text} autoFocus onChange={(e) => setText(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), setEditing(false))} />
      <button type="submit" className="button primary">{t('misc.save')}</button>
      <button type="button" className="button" onClick={() => setEditing(false)}>{t('misc.cancel')}</button>
    </form>
  );
}

function Poll({ message, selfId }: { message: Message; selfId: number }) {
  const w = widgetOf(message)!;
  const poll = reducePoll(w.extraData, w.events, message.sender_id, selfId);
  const names = useNames();
  const [option, setOption] = useState('');
  const sentIdx = useRef(0);
  const mine = message.sender_id === selfId;
  const add = (e: FormEvent) => {
    e.preventDefault();
    const ev = newOptionEvent({ ...poll, nextIdx: Math.max(poll.nextIdx, sentIdx.current + 1) }, option);
    if (!ev) return;
    sentIdx.current = ev.idx;
    setOption('');
    void sendWidgetEvent(message.id, ev);
  };
  return (
    <section className="widget poll-widget" aria-label={poll.question ? t('feed.poll_named', { question: poll.question }) : t('feed.poll')}>
      <div className="widget-heading">
        <div className="widget-title poll-question">{poll.question || <span className="muted">{t('feed.poll_no_question')}</span>}</div>
        {mine && <TitleEditor value={poll.question} label={t('feed.poll_edit_question')} onSave={(q) => void sendWidgetEvent(message.id, questionEvent(q))} />}
      </div>
      <ul className="poll-options">
        {poll.options.map((o) => {
          const voted = o.voters.includes(selfId);
          return (
            <li key={o.key}>
              <button type="button" className={`poll-vote${voted ? ' voted' : ''}`} aria-pressed={voted} title={names(o.voters)}
                aria-label={t('feed.poll_vote', { option: o.option, count: o.voters.length })} onClick={() => void sendWidgetEvent(message.id, voteEvent(poll, o.key, selfId))}>
                {o.voters.length}
              </button>
              <span className="poll-option">{o.option}</span>
              {o.voters.length > 0 && <span className="poll-voters">({names(o.voters)})</span>}
            </li>
          );
        })}
      </ul>
      <form className="widget-inline-form" onSubmit={add}>
        <input aria-label={t('feed.poll_new_option')} placeholder={t('feed.poll_new_option')} value={option} onChange={(e) => setOption(e.target.value)} maxLength={200} />
        <button type="submit" className="button" disabled={!option.trim() || poll.options.some((o) => o.option === option.trim())}>{t('feed.poll_add')}</button>
      </form>
    </section>
  );
}

function Todo({ message, selfId }: { message: Message; selfId: number }) {
  const w = widgetOf(message)!;
  const todo = reduceTodo(w.extraData, w.events, message.sender_id, selfId);
  const [task, setTask] = useState('');
  const [desc, setDesc] = useState('');
  const sentIdx = useRef(0);
  const mine = message.sender_id === selfId;
  const duplicate = todo.tasks.some((x) => x.task === task.trim());
  const add = (e: FormEvent) => {
    e.preventDefault();
    const ev = newTaskEvent({ ...todo, myIdx: Math.max(todo.myIdx, sentIdx.current) }, task, desc);
    if (!ev) return;
    sentIdx.current = ev.key;
    setTask('');
    setDesc('');
    void sendWidgetEvent(message.id, ev);
  };
  return (
    <section className="widget todo-widget" aria-label={t('feed.todo_named', { title: todo.title || t('feed.todo_default_title') })}>
      <div className="widget-heading">
        <div className="widget-title todo-title">{todo.title || t('feed.todo_default_title')}</div>
        {mine && <TitleEditor value={todo.title} label={t('feed.todo_edit_title')} onSave={(v) => void sendWidgetEvent(message.id, titleEvent(v))} />}
      </div>
      <ul className="todo-tasks">
        {todo.tasks.map((x) => (
          <li key={x.key} className={x.completed ? 'done' : undefined}>
            <label>
              <input type="checkbox" checked={x.completed} onChange={() => void sendWidgetEvent(message.id, strikeEvent(x.key))} />
              <span>
                <strong>{x.task}</strong>
                {x.desc && <span className="todo-desc">: {x.desc}</span>}
              </span>
            </label>
          </li>
        ))}
      </ul>
      <form className="widget-inline-form" onSubmit={add}>
        <input aria-label={t('feed.todo_new_task')} placeholder={t('feed.todo_new_task')} value={task} onChange={(e) => setTask(e.target.value)} maxLength={200} />
        <input aria-label={t('feed.todo_new_desc')} placeholder={t('feed.todo_new_desc')} value={desc} onChange={(e) => setDesc(e.target.value)} maxLength={500} />
        <button type="submit" className="button" disabled={!task.trim() || duplicate}>{t('feed.todo_add')}</button>
      </form>
      {duplicate && task.trim() && <p className="widget-error" role="status">{t('feed.todo_duplicate')}</p>}
    </section>
  );
}
