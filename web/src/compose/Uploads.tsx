/**
 * Uploads into a text (the compose box's, or a message being edited): each file's placeholder
 * goes in at the cursor, a progress bar shows below with a cancel button, and the finished
 * link replaces the placeholder. Refusals are said in words and stay until dismissed.
 */
import { useRef, useState } from 'react';
import { t } from '../i18n';
import { useAppState } from '../state/store';
import { checkFile, fileName, insertPlaceholder, replacePlaceholder, startUpload, uniquePlaceholder, UploadError } from './upload';

export interface UploadItem {
  key: number;
  name: string;
  progress: number;
  error?: string;
  cancel?: () => void;
}

export interface TextAccess {
  get: () => { value: string; start: number; end: number };
  set: (value: string, caret?: number) => void;
}

export interface Uploads {
  items: UploadItem[];
  busy: boolean;
  add: (files: File[]) => void;
  dismiss: (key: number) => void;
}

let nextKey = 1;

export function useUploads(text: TextAccess): Uploads {
  const maxMib = useAppState((s) => s.reg?.max_file_upload_size_mib as number | undefined);
  const [items, setItems] = useState<UploadItem[]>([]);
  const access = useRef(text);
  access.current = text;
  const update = (key: number, patch: Partial<UploadItem> | null) => setItems((list) => (patch === null ? list.filter((i) => i.key !== key) : list.map((i) => (i.key === key ? { ...i, ...patch } : i))));

  const add = (files: File[]) => {
    // The caret moves in the next frame: files added together follow one another from here.
    let caret: number | null = null;
    for (const file of files) {
      const key = nextKey++;
      const name = fileName(file);
      const problem = checkFile(file, maxMib);
      if (problem) {
        const error = problem.kind === 'disabled' ? t('compose.upload.disabled') : t('compose.upload.too_big', { name, max: problem.maxMib });
        setItems((list) => [...list, { key, name, progress: 0, error }]);
        continue;
      }
      const { value, start, end } = access.current.get();
      const placeholder = uniquePlaceholder(name, value);
      const at: number | null = caret;
      const placed: { value: string; caret: number } = at === null ? insertPlaceholder(value, start, end, placeholder) : insertPlaceholder(value, at, at, placeholder);
      caret = placed.caret;
      access.current.set(placed.value, placed.caret);
      const running = startUpload(file, name, (progress) => update(key, { progress }));
      setItems((list) => [...list, { key, name, progress: 0, cancel: running.cancel }]);
      running.promise.then(
        (result) => {
          access.current.set(replacePlaceholder(access.current.get().value, placeholder, result));
          update(key, null);
        },
        (err: unknown) => {
          access.current.set(replacePlaceholder(access.current.get().value, placeholder, null));
          if (err instanceof UploadError && err.cancelled) return update(key, null);
          const msg = err instanceof Error ? err.message : String(err);
          const error = msg === 'too_big' ? t('compose.upload.too_big', { name, max: maxMib ?? '?' }) : msg === 'network' ? t('compose.upload.network', { name }) : t('compose.upload.failed', { name, error: msg });
          update(key, { error, cancel: undefined });
        },
      );
    }
  };
  return { items, busy: items.some((i) => !i.error), add, dismiss: (key) => update(key, null) };
}

export function UploadList({ uploads }: { uploads: Uploads }) {
  if (!uploads.items.length) return null;
  return (
    <ul className="compose-uploads" aria-label={t('compose.upload.list')}>
      {uploads.items.map((u) => (
        <li key={u.key} className={u.error ? 'upload-error' : undefined}>
          {u.error ? (
            <span role="alert">{u.error}</span>
          ) : (
            <>
              <span className="upload-name">{t('compose.upload.uploading', { name: u.name })}</span>
              <progress max={1} value={u.progress} aria-label={t('compose.upload.progress', { name: u.name })} />
            </>
          )}
          <button type="button" className="icon-button" onClick={() => (u.cancel ? u.cancel() : uploads.dismiss(u.key))} aria-label={u.error ? t('compose.upload.dismiss') : t('compose.upload.cancel', { name: u.name })} title={u.error ? t('compose.upload.dismiss') : t('compose.upload.cancel', { name: u.name })}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
