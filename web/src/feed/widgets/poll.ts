/**
 * A poll's state, reduced from its submessages exactly as the family's poll_data does: options
 * keyed `<sender>,<idx>` (the /poll command's own options as `canned,<i>`), duplicates of an
 * option's text ignored, votes toggled per person, the question changed only by its author.
 */
import type { WidgetEvent } from './submessages';

export interface PollOption {
  key: string;
  option: string;
  voters: number[];
}

export interface PollState {
  question: string;
  options: PollOption[];
  /** The idx this viewer's next new option takes. */
  nextIdx: number;
}

const MAX_IDX = 1000;

export function reducePoll(extra: Record<string, unknown> | null, events: readonly WidgetEvent[], authorId: number, selfId: number): PollState {
  let question = typeof extra?.question === 'string' ? extra.question : '';
  const options = new Map<string, { option: string; votes: Set<number> }>();
  let nextIdx = 1;
  const addOption = (sender: number | 'canned', idx: number, option: string) => {
    for (const o of options.values()) if (o.option === option) return;
    if (idx < 0 || idx > MAX_IDX) return;
    options.set(`${sender},${idx}`, { option, votes: new Set() });
    if (sender === selfId && nextIdx <= idx) nextIdx = idx + 1;
  };
  const canned = Array.isArray(extra?.options) ? extra.options : [];
  canned.forEach((o, i) => typeof o === 'string' && addOption('canned', i, o));
  for (const { senderId, data } of events) {
    if (data.type === 'new_option' && typeof data.idx === 'number' && typeof data.option === 'string') addOption(senderId, data.idx, data.option);
    else if (data.type === 'question' && typeof data.question === 'string' && senderId === authorId) question = data.question;
    else if (data.type === 'vote' && typeof data.key === 'string' && (data.vote === 1 || data.vote === -1)) {
      const o = options.get(data.key);
      if (!o) continue;
      if (data.vote === 1) o.votes.add(senderId);
      else o.votes.delete(senderId);
    }
  }
  return { question, options: [...options].map(([key, o]) => ({ key, option: o.option, voters: [...o.votes] })), nextIdx };
}

/** The vote event toggling the viewer's vote on an option. */
export function voteEvent(state: PollState, key: string, selfId: number): { type: 'vote'; key: string; vote: 1 | -1 } {
  const voted = state.options.find((o) => o.key === key)?.voters.includes(selfId);
  return { type: 'vote', key, vote: voted ? -1 : 1 };
}

export function newOptionEvent(state: PollState, option: string): { type: 'new_option'; idx: number; option: string } | null {
  const text = option.trim();
  if (!text || state.options.some((o) => o.option === text)) return null;
  return { type: 'new_option', idx: state.nextIdx, option: text };
}

export function questionEvent(question: string): { type: 'question'; question: string } {
  return { type: 'question', question: question.trim() };
}
