import { newOptionEvent, reducePoll, voteEvent } from '../widgets/poll';
import { widgetOf } from '../widgets/submessages';
import { newTaskEvent, reduceTodo } from '../widgets/todo';

const sub = (id: number, sender: number, content: unknown) => ({ id, message_id: 1, sender_id: sender, msg_type: 'widget', content: JSON.stringify(content) });

describe('poll widget data', () => {
  const start = sub(1, 10, { widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['Pizza', 'Soup', 'Pizza'] } });

  it('starts from the command\'s question and options, duplicates dropped', () => {
    const w = widgetOf({ sender_id: 10, submessages: [start] })!;
    expect(w.widgetType).toBe('poll');
    const poll = reducePoll(w.extraData, w.events, 10, 11);
    expect(poll.question).toBe('Lunch?');
    expect(poll.options).toEqual([{ key: 'canned,0', option: 'Pizza', voters: [] }, { key: 'canned,1', option: 'Soup', voters: [] }]);
  });

  it('applies options, votes (toggled) and question edits in id order', () => {
    const subs = [
      sub(6, 12, { type: 'vote', key: '11,1', vote: -1 }),
      start,
      sub(2, 11, { type: 'new_option', idx: 1, option: 'Tacos' }),
      sub(3, 12, { type: 'vote', key: '11,1', vote: 1 }),
      sub(4, 11, { type: 'vote', key: 'canned,0', vote: 1 }),
      sub(5, 11, { type: 'question', question: 'hijacked' }),
      sub(7, 10, { type: 'question', question: 'Dinner?' }),
      sub(8, 11, { type: 'vote', key: 'nope', vote: 1 }),
      sub(9, 11, { type: 'new_option', idx: 2, option: 'Soup' }),
    ];
    const w = widgetOf({ sender_id: 10, submessages: subs })!;
    const poll = reducePoll(w.extraData, w.events, 10, 11);
    expect(poll.question).toBe('Dinner?');
    expect(poll.options.map((o) => [o.key, o.option, o.voters])).toEqual([
      ['canned,0', 'Pizza', [11]],
      ['canned,1', 'Soup', []],
      ['11,1', 'Tacos', []],
    ]);
    expect(poll.nextIdx).toBe(2);
    expect(voteEvent(poll, 'canned,0', 11)).toEqual({ type: 'vote', key: 'canned,0', vote: -1 });
    expect(voteEvent(poll, 'canned,1', 11)).toEqual({ type: 'vote', key: 'canned,1', vote: 1 });
    expect(newOptionEvent(poll, ' Curry ')).toEqual({ type: 'new_option', idx: 2, option: 'Curry' });
    expect(newOptionEvent(poll, 'Pizza')).toBeNull();
  });

  it('ignores a widget started by someone other than the sender', () => {
    expect(widgetOf({ sender_id: 99, submessages: [start] })).toBeNull();
    expect(widgetOf({ sender_id: 10, submessages: [] })).toBeNull();
  });
});

describe('to-do widget data', () => {
  const start = sub(1, 10, { widget_type: 'todo', extra_data: { task_list_title: 'Chores', tasks: [{ task: 'Dishes', desc: 'all of them' }] } });

  it('adds tasks keyed idx,sender, strikes toggle, only the author retitles', () => {
    const subs = [
      start,
      sub(2, 11, { type: 'new_task', key: 2, task: 'Laundry', desc: '', completed: false }),
      sub(3, 12, { type: 'strike', key: '0,canned' }),
      sub(4, 11, { type: 'strike', key: '2,11' }),
      sub(5, 11, { type: 'strike', key: '2,11' }),
      sub(6, 12, { type: 'new_task_list_title', title: 'nope' }),
      sub(7, 10, { type: 'new_task_list_title', title: 'House' }),
      sub(8, 12, { type: 'new_task', key: 2, task: 'Dishes', desc: '', completed: false }),
    ];
    const w = widgetOf({ sender_id: 10, submessages: subs })!;
    const todo = reduceTodo(w.extraData, w.events, 10, 11);
    expect(todo.title).toBe('House');
    expect(todo.tasks).toEqual([
      { key: '0,canned', task: 'Dishes', desc: 'all of them', completed: true },
      { key: '2,11', task: 'Laundry', desc: '', completed: false },
    ]);
    expect(newTaskEvent(todo, 'Cook', 'tonight')).toEqual({ type: 'new_task', key: 4, task: 'Cook', desc: 'tonight', completed: false });
    expect(newTaskEvent(todo, 'Laundry', '')).toBeNull();
    expect(newTaskEvent(reduceTodo(w.extraData, [], 10, 12), 'Cook', '')!.key).toBe(2);
  });
});
