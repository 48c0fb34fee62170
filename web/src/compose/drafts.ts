/**
 * Where drafts live: on the server (POST/PATCH/DELETE /json/drafts, synchronised to the
 * person's other clients through `drafts` events that keep reg.drafts current) when the
 * person's `enable_drafts_synchronization` is on, otherwise in this browser's localStorage.
 * The compose box has one saver; the drafts list reads both stores.
 */
import { useSyncExternalStore } from 'react';
import type { Draft } from '@chat/client';
import { api } from '../api';
import { store, useAppState } from '../state/store';
import { DraftSaver, type DraftBackend, type DraftData, type DraftId } from './draftSaver';
import { conversationKey, type ComposeTarget } from './types';
import { targetFromDraft } from './draftSaver';

export interface StoredDraft extends DraftData {
  id: DraftId;
  local: boolean;
}

const listeners = new Set<() => void>();
let version = 0;
function changed(): void {
  version++;
  for (const l of listeners) l();
}

// --- This browser's drafts --------------------------------------------------------------------

const KEY = 'chat.compose.drafts';

function readLocal(): Record<string, DraftData> {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, DraftData>;
  } catch {
    return {};
  }
}

function writeLocal(drafts: Record<string, DraftData>): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(drafts));
  } catch {
    // Storage full or blocked: the draft stays in the box only.
  }
  changed();
}

export const localBackend: DraftBackend = {
  async create(d) {
    const id = `local-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    writeLocal({ ...readLocal(), [id]: d });
    return id;
  },
  async update(id, d) {
    const all = readLocal();
    if (!(String(id) in all)) throw new Error('Draft does not exist');
    writeLocal({ ...all, [String(id)]: d });
  },
  async remove(id) {
    const all = readLocal();
    delete all[String(id)];
    writeLocal(all);
  },
};

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === KEY) changed();
  });
}

// --- The server's drafts ----------------------------------------------------------------------

/**
 * What this tab wrote and the server has not yet echoed in reg.drafts (its event may still be
 * on the way): without it a draft saved a moment ago would not be found when reopening.
 * An entry goes once reg.drafts has caught up with it.
 */
const written = new Map<number, DraftData | null>();

export const serverBackend: DraftBackend = {
  async create(d) {
    const r = await api.call<{ ids: number[] }>('POST', '/drafts', { drafts: [d] });
    const id = r.ids[0]!;
    written.set(id, d);
    changed();
    return id;
  },
  async update(id, d) {
    await api.call('PATCH', `/drafts/${id}`, { draft: d });
    written.set(Number(id), d);
    changed();
  },
  async remove(id) {
    written.set(Number(id), null);
    changed();
    try {
      await api.call('DELETE', `/drafts/${id}`);
    } catch {
      // Already gone (deleted in another client): nothing left to do.
    }
  },
};

function serverDrafts(regDrafts: Draft[] | undefined): StoredDraft[] {
  const out = new Map<number, StoredDraft>();
  for (const d of regDrafts ?? []) out.set(d.id, { ...d, local: false });
  for (const [id, d] of written) {
    const fromReg = out.get(id);
    const caughtUp = d === null ? !fromReg : !!fromReg && fromReg.content === d.content && fromReg.topic === d.topic && fromReg.to.join() === d.to.join();
    if (caughtUp) written.delete(id);
    else if (d === null) out.delete(id);
    else out.set(id, { ...d, id, local: false });
  }
  return [...out.values()];
}

// --- Both -------------------------------------------------------------------------------------

export function syncEnabled(): boolean {
  return store.get().reg?.user_settings?.enable_drafts_synchronization !== false;
}

export function currentBackend(): DraftBackend {
  return syncEnabled() ? serverBackend : localBackend;
}

export function backendOf(d: StoredDraft): DraftBackend {
  return d.local ? localBackend : serverBackend;
}

export function allDrafts(): StoredDraft[] {
  const local = Object.entries(readLocal()).map(([id, d]) => ({ ...d, id, local: true }));
  return [...serverDrafts(store.get().reg?.drafts), ...local].sort((a, b) => b.timestamp - a.timestamp);
}

/** The newest draft of this conversation, to restore when the box opens on it. */
export function findDraft(target: ComposeTarget | null): StoredDraft | undefined {
  if (!target) return undefined;
  const key = conversationKey(target);
  return allDrafts().find((d) => {
    const t = targetFromDraft(d);
    return t !== null && conversationKey(t) === key;
  });
}

export function useDrafts(): StoredDraft[] {
  useAppState((s) => s.reg?.drafts);
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => version,
  );
  return allDrafts();
}

/** The compose box's saver: one draft per message being written. */
export const composeDrafts = new DraftSaver(currentBackend(), 1000, undefined, (err) => console.warn('Draft not saved:', err));

export function deleteDraft(d: StoredDraft): Promise<void> {
  if (composeDrafts.id === d.id) composeDrafts.adopt(undefined);
  return backendOf(d).remove(d.id);
}
