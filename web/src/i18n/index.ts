/**
 * Every string the interface shows, in one catalogue (one module per area under strings/,
 * merged here), looked up by key with `{name}` placeholders. A translation is another
 * catalogue of the same keys; the language comes from the person's `default_language`.
 */
import { admin } from './strings/admin';
import { compose } from './strings/compose';
import { core } from './strings/core';
import { feed } from './strings/feed';
import { nav } from './strings/nav';
import { people } from './strings/people';
import { views } from './strings/views';
import { settings } from './strings/settings';

// Each area adds its module here: `import { feed } from './strings/feed'` and `...feed`.
const catalogue = { ...admin, ...compose, ...core, ...feed, ...nav, ...views, ...people, ...settings } as const;

export type StringKey = keyof typeof catalogue;

const translations: Record<string, Partial<Record<string, string>>> = {};
let language = 'en';

/** Adds a language's strings (keys it lacks fall back to English). */
export function addTranslation(lang: string, strings: Partial<Record<string, string>>): void {
  translations[lang] = { ...translations[lang], ...strings };
}

export function setLanguage(lang: string): void {
  language = lang;
  document.documentElement.lang = lang;
}

export function t(key: StringKey, values?: Record<string, string | number>): string {
  const text = translations[language]?.[key] ?? catalogue[key];
  return values ? text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`)) : text;
}

