/**
 * Saving the compose box as a draft while the person types: changes are debounced, then the
 * draft is created once and updated after (never two drafts for one message), and deleted
 * when the text is cleared or sent. Calls run one after another, so an update never overtakes
 * the create it depends on. Pure apart from the backend and timer it is given.
 */
import type { ComposeTarget } from './types';

export type DraftId = number | string;

/** The family's draft object (POST /drafts), `to` holding a channel id or people's ids. */
export interface DraftData {
  type: 'stream' | 'private' | '';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export interface DraftBackend {
  create(draft: DraftData): Promise<DraftId>;
  update(id: DraftId, draft: DraftData): Promise<void>;
  remove(id: DraftId): Promise<void>;
}

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

export function draftFromCompose(target: ComposeTarget | null, content: string, now = Date.now()): DraftData {
  const timestamp = Math.floor(now / 1000);
  // Without a full recipient the draft is unaddressed (the server refuses a channel draft
  // without its channel); a topic typed so far is kept, the server ignoring it.
  if (!target || (target.type === 'stream' && !target.streamId) || (target.type === 'direct' && !target.to.length)) {
    return { type: '', to: [], topic: target?.type === 'stream' ? target.topic : '', content, timestamp };
  }
  if (target.type === 'stream') return { type: 'stream', to: [target.streamId], topic: target.topic, content, timestamp };
  return { type: 'private', to: [...target.to].sort((a, b) => a - b), topic: '', content, timestamp };
}

/** The compose target a saved draft goes back to (null for an unaddressed one). */
export function targetFromDraft(d: Pick<DraftData, 'type' | 'to' | 'topic'>): ComposeTarget | null {
  if (d.type === 'stream' && d.to.length === 1) return { type: 'stream', streamId: d.to[0]!, topic: d.topic };
  if (d.type === 'private' && d.to.length) return { type: 'direct', to: [...d.to] };
  if (d.type === 'stream') return { type: 'stream', streamId: 0, topic: d.topic };
  return null;
}

/** Text worth keeping: anything but blanks. */
export function isSavable(content: string): boolean {
  return content.trim() !== '';
}

function sameDraft(a: DraftData | null, b: DraftData): boolean {
  return !!a && a.type === b.type && a.topic === b.topic && a.content === b.content && a.to.join(',') === b.to.join(',');
}

/** One message's draft: created once, then updated; a new conversation starts a new one. */
interface Session {
  id: DraftId | undefined;
  saved: DraftData | null;
}

export class DraftSaver {
  private current: Session = { id: undefined, saved: null };
  private pending: DraftData | undefined;
  private timer: unknown;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private backend: DraftBackend,
    private readonly delayMs = 1000,
    private readonly timers: Timers = realTimers,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** The draft the box is editing, once created (or adopted from the drafts list). */
  get id(): DraftId | undefined {
    return this.current.id;
  }

  /** Storage changes (the person switched synchronisation on or off) apply from the next draft. */
  setBackend(backend: DraftBackend): void {
    if (backend === this.backend) return;
    this.backend = backend;
    this.current = { id: undefined, saved: null };
  }

  /** The box now edits this existing draft (restored from the list), where it is stored. */
  adopt(id: DraftId | undefined, data: DraftData | null = null, backend?: DraftBackend): void {
    this.cancelTimer();
    this.pending = undefined;
    this.current = { id, saved: data };
    if (backend) this.backend = backend;
  }

  /** The text or recipient changed: save after a pause in typing. */
  change(draft: DraftData): void {
    this.pending = draft;
    this.cancelTimer();
    this.timer = this.timers.set(() => void this.flush(), this.delayMs);
  }

  /** Saves what is pending now (closing the box, leaving the page). */
  flush(): Promise<void> {
    this.cancelTimer();
    const draft = this.pending;
    this.pending = undefined;
    if (draft === undefined) return this.chain;
    const session = this.current;
    const backend = this.backend;
    return this.enqueue(() => this.write(session, backend, draft));
  }

  /** The message was sent (or discarded): drop anything pending and delete the draft. */
  discard(): Promise<void> {
    this.cancelTimer();
    this.pending = undefined;
    const session = this.current;
    const backend = this.backend;
    this.current = { id: undefined, saved: null };
    return this.enqueue(async () => {
      const id = session.id;
      session.id = undefined;
      session.saved = null;
      if (id !== undefined) await backend.remove(id);
    });
  }

  /** Saves what is pending and moves on to a new draft, keeping the old one (another conversation). */
  detach(): Promise<void> {
    const done = this.flush();
    this.current = { id: undefined, saved: null };
    return done;
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(task).catch((err) => this.onError(err));
    return this.chain;
  }

  private async write(session: Session, backend: DraftBackend, draft: DraftData): Promise<void> {
    if (!isSavable(draft.content)) {
      const id = session.id;
      session.id = undefined;
      session.saved = null;
      if (id !== undefined) await backend.remove(id);
      return;
    }
    if (sameDraft(session.saved, draft)) return;
    if (session.id === undefined) {
      session.id = await backend.create(draft);
    } else {
      try {
        await backend.update(session.id, draft);
      } catch {
        // Deleted elsewhere (another tab, the drafts list): keep the text as a new draft.
        session.id = await backend.create(draft);
      }
    }
    session.saved = draft;
  }
}
