/** A search term in words, for the suggestions ("Sent by Iago", "Starred messages"). */
import { t } from '../i18n';
import { store } from '../state/store';
import type { SearchTerm } from './query';

function personName(emailOrMe: string): string {
  const s = store.get();
  if (emailOrMe === 'me') return t('misc.you');
  const lower = emailOrMe.toLowerCase();
  for (const u of s.users.values()) if (u.email.toLowerCase() === lower) return u.full_name;
  return emailOrMe;
}

const IS_WORDS: Record<string, Parameters<typeof t>[0]> = {
  dm: 'search.is.dm',
  starred: 'search.is.starred',
  mentioned: 'search.is.mentioned',
  unread: 'search.is.unread',
  resolved: 'search.is.resolved',
  followed: 'search.is.followed',
  alerted: 'search.is.alerted',
  muted: 'search.is.muted',
};
const HAS_WORDS: Record<string, Parameters<typeof t>[0]> = {
  link: 'search.has.link',
  image: 'search.has.image',
  attachment: 'search.has.attachment',
  reaction: 'search.has.reaction',
};

export function describeTerm(term: SearchTerm): string {
  const text = describePositive(term);
  return term.negated ? t('search.exclude', { what: text }) : text;
}

function describePositive(term: SearchTerm): string {
  if (!term.operand && term.operator !== 'search') return t('search.operator', { operator: term.operator });
  switch (term.operator) {
    case 'search':
      return t('search.for', { words: term.operand });
    case 'channel':
      return t('search.channel', { name: term.operand });
    case 'topic':
      return t('search.topic', { name: term.operand });
    case 'sender':
      return t('search.sender', { name: personName(term.operand) });
    case 'dm':
      return t('search.dm', { names: term.operand.split(',').map(personName).join(', ') });
    case 'dm-including':
      return t('search.dm_including', { name: personName(term.operand) });
    case 'is':
      return IS_WORDS[term.operand] ? t(IS_WORDS[term.operand]!) : `is:${term.operand}`;
    case 'has':
      return HAS_WORDS[term.operand] ? t(HAS_WORDS[term.operand]!) : `has:${term.operand}`;
    case 'near':
      return t('search.near', { id: term.operand });
    case 'id':
      return t('search.id', { id: term.operand });
    default:
      return `${term.operator}:${term.operand}`;
  }
}
