/**
 * A user's own things: navigation views, saved snippets and alert words. Each change is
 * announced to that user alone.
 */
import { recordEvent } from '@chat/bus';
import { errors, LIMITS, type Actor } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { alertWordList, navigationViewObject, savedSnippetObject } from '@chat/wire';
import type { Services } from '../context';

async function tellOwner(tx: Tx, actor: Actor, type: string, event: Record<string, unknown>) {
  await recordEvent(tx, { realmId: actor.realmId, type, users: [actor.userId], event: { type, ...event } });
}

// ---- navigation views ----

export const BUILT_IN_VIEW_FRAGMENTS = ['inbox', 'recent', 'feed', 'drafts', 'narrow/has/reaction/sender/me', 'narrow/is/mentioned', 'narrow/is/starred'];

export async function listViews(services: Services, actor: Actor) {
  const views = await services.db.navigationView.findMany({ where: { userId: actor.userId }, orderBy: { id: 'asc' } });
  return views.map(navigationViewObject);
}

function cleanFragment(raw: string): string {
  const fragment = raw.trim();
  if (!fragment) throw errors.badRequest('fragment cannot be blank');
  return fragment;
}

function cleanName(raw: string | null | undefined): string | null | undefined {
  if (raw === undefined || raw === null) return raw;
  const name = raw.trim();
  if (!name) throw errors.badRequest('name cannot be blank');
  return name;
}

export async function doAddView(services: Services, actor: Actor, input: { fragment: string; isPinned: boolean; name?: string | null }) {
  const fragment = cleanFragment(input.fragment);
  const name = cleanName(input.name) ?? null;
  if (BUILT_IN_VIEW_FRAGMENTS.includes(fragment)) {
    if (name !== null) throw errors.badRequest('Built-in views cannot have a custom name');
  } else if (!name) {
    throw errors.badRequest('Custom views must have a valid name.');
  }
  await services.db.$transaction(async (tx) => {
    const clash = await tx.navigationView.findFirst({ where: { userId: actor.userId, OR: [{ fragment }, ...(name ? [{ name }] : [])] } });
    if (clash) throw errors.badRequest('Navigation view already exists.');
    const view = await tx.navigationView.create({ data: { realmId: actor.realmId, userId: actor.userId, fragment, isPinned: input.isPinned, name } });
    await tellOwner(tx, actor, 'navigation_view', { op: 'add', navigation_view: navigationViewObject(view) });
  });
}

async function accessView(tx: Tx, actor: Actor, fragment: string) {
  const view = await tx.navigationView.findUnique({ where: { userId_fragment: { userId: actor.userId, fragment } } });
  if (!view) throw errors.resourceNotFound('Navigation view does not exist.');
  return view;
}

export async function doUpdateView(services: Services, actor: Actor, rawFragment: string, change: { isPinned?: boolean; name?: string }) {
  const fragment = cleanFragment(rawFragment);
  const name = cleanName(change.name);
  if (BUILT_IN_VIEW_FRAGMENTS.includes(fragment) && name !== undefined) throw errors.badRequest('Built-in views cannot have a custom name');
  await services.db.$transaction(async (tx) => {
    if (name && (await tx.navigationView.findFirst({ where: { userId: actor.userId, name, NOT: { fragment } } }))) {
      throw errors.badRequest('Navigation view already exists.');
    }
    const view = await accessView(tx, actor, fragment);
    const data: Record<string, unknown> = {};
    if (change.isPinned !== undefined) data.is_pinned = change.isPinned;
    if (name) data.name = name;
    await tx.navigationView.update({ where: { id: view.id }, data: { isPinned: change.isPinned, ...(name ? { name } : {}) } });
    await tellOwner(tx, actor, 'navigation_view', { op: 'update', fragment, data });
  });
}

export async function doRemoveView(services: Services, actor: Actor, rawFragment: string) {
  const fragment = cleanFragment(rawFragment);
  await services.db.$transaction(async (tx) => {
    const view = await accessView(tx, actor, fragment);
    await tx.navigationView.delete({ where: { id: view.id } });
    await tellOwner(tx, actor, 'navigation_view', { op: 'remove', fragment });
  });
}

// ---- saved snippets ----

export const SNIPPET_TITLE_MAX = 60;

function checkSnippet(title: string | undefined, content: string | undefined) {
  if (title !== undefined) {
    if (!title.trim()) throw errors.badRequest('Title cannot be empty.');
    if ([...title].length > SNIPPET_TITLE_MAX) throw errors.badRequest(`title is too long (limit: ${SNIPPET_TITLE_MAX} characters)`);
  }
  if (content !== undefined) {
    if (!content.trim()) throw errors.badRequest('Content cannot be empty.');
    if ([...content].length > LIMITS.maxMessageLength) throw errors.badRequest(`content is too long (limit: ${LIMITS.maxMessageLength} characters)`);
  }
}

export async function listSnippets(services: Services, actor: Actor) {
  const rows = await services.db.savedSnippet.findMany({ where: { userId: actor.userId }, orderBy: { id: 'asc' } });
  return rows.map(savedSnippetObject);
}

export async function doCreateSnippet(services: Services, actor: Actor, title: string, content: string): Promise<number> {
  checkSnippet(title, content);
  return services.db.$transaction(async (tx) => {
    const row = await tx.savedSnippet.create({ data: { realmId: actor.realmId, userId: actor.userId, title: title.trim(), content } });
    await tellOwner(tx, actor, 'saved_snippets', { op: 'add', saved_snippet: savedSnippetObject(row) });
    return row.id;
  });
}

async function accessSnippet(tx: Tx, actor: Actor, id: number) {
  const row = await tx.savedSnippet.findFirst({ where: { id, userId: actor.userId } });
  if (!row) throw errors.resourceNotFound('Saved snippet does not exist.');
  return row;
}

export async function doEditSnippet(services: Services, actor: Actor, id: number, change: { title?: string; content?: string }) {
  if (change.title === undefined && change.content === undefined) {
    throw errors.badRequest('At least one of title or content must be provided to update.');
  }
  checkSnippet(change.title, change.content);
  await services.db.$transaction(async (tx) => {
    await accessSnippet(tx, actor, id);
    const row = await tx.savedSnippet.update({
      where: { id },
      data: { ...(change.title !== undefined ? { title: change.title.trim() } : {}), ...(change.content !== undefined ? { content: change.content } : {}) },
    });
    await tellOwner(tx, actor, 'saved_snippets', { op: 'update', saved_snippet: savedSnippetObject(row) });
  });
}

export async function doDeleteSnippet(services: Services, actor: Actor, id: number) {
  await services.db.$transaction(async (tx) => {
    await accessSnippet(tx, actor, id);
    await tx.savedSnippet.delete({ where: { id } });
    await tellOwner(tx, actor, 'saved_snippets', { op: 'remove', saved_snippet_id: id });
  });
}

// ---- alert words ----

export const ALERT_WORD_MAX = 100;

export async function listAlertWords(db: Services['db'] | Tx, userId: number): Promise<string[]> {
  return alertWordList(await db.alertWord.findMany({ where: { userId }, orderBy: { id: 'asc' } }));
}

function cleanWords(words: string[]): string[] {
  words.forEach((w, i) => {
    if ([...w].length > ALERT_WORD_MAX) throw errors.badRequest(`alert_words[${i}] is too long (limit: ${ALERT_WORD_MAX} characters)`);
  });
  return [...new Set(words.map((w) => w.trim()).filter(Boolean))];
}

/** Alert words match regardless of case, so a word differing only in case is not added twice. */
export async function doAddAlertWords(services: Services, actor: Actor, words: string[]): Promise<string[]> {
  const wanted = cleanWords(words);
  return services.db.$transaction(async (tx) => {
    const existing = await listAlertWords(tx, actor.userId);
    const known = new Set(existing.map((w) => w.toLowerCase()));
    const fresh = wanted.filter((w) => {
      const key = w.toLowerCase();
      if (known.has(key)) return false;
      known.add(key);
      return true;
    });
    if (fresh.length) {
      await tx.alertWord.createMany({ data: fresh.map((word) => ({ realmId: actor.realmId, userId: actor.userId, word })) });
      const all = await listAlertWords(tx, actor.userId);
      await tellOwner(tx, actor, 'alert_words', { alert_words: all });
      return all;
    }
    return existing;
  });
}

export async function doRemoveAlertWords(services: Services, actor: Actor, words: string[]): Promise<string[]> {
  const gone = new Set(cleanWords(words).map((w) => w.toLowerCase()));
  return services.db.$transaction(async (tx) => {
    const rows = await tx.alertWord.findMany({ where: { userId: actor.userId } });
    const doomed = rows.filter((r) => gone.has(r.word.toLowerCase())).map((r) => r.id);
    if (doomed.length) {
      await tx.alertWord.deleteMany({ where: { id: { in: doomed } } });
      const all = await listAlertWords(tx, actor.userId);
      await tellOwner(tx, actor, 'alert_words', { alert_words: all });
      return all;
    }
    return listAlertWords(tx, actor.userId);
  });
}
