/** The row of formatting buttons under the text, with the upload button and the preview toggle. */
import { useId, useRef, type ReactNode } from 'react';
import { t, type StringKey } from '../i18n';
import type { FormatKind } from './format';
import { LinkIcon, PaperclipIcon, PollIcon } from './icons';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const mod = isMac ? '⌘' : 'Ctrl+';

const BUTTONS: Array<{ kind: FormatKind; label: StringKey; glyph: ReactNode; shortcut?: string }> = [
  { kind: 'bold', label: 'compose.format.bold', glyph: 'B', shortcut: `${mod}B` },
  { kind: 'italic', label: 'compose.format.italic', glyph: 'I', shortcut: `${mod}I` },
  { kind: 'strikethrough', label: 'compose.format.strikethrough', glyph: 'S', shortcut: `${mod}${isMac ? '⇧' : 'Shift+'}X` },
  { kind: 'link', label: 'compose.format.link', glyph: <LinkIcon />, shortcut: `${mod}${isMac ? '⇧' : 'Shift+'}L` },
  { kind: 'code', label: 'compose.format.code', glyph: '</>' },
  { kind: 'quote', label: 'compose.format.quote', glyph: '❝' },
  { kind: 'spoiler', label: 'compose.format.spoiler', glyph: '◐' },
  { kind: 'math', label: 'compose.format.math', glyph: '∑' },
  { kind: 'poll', label: 'compose.format.poll', glyph: <PollIcon /> },
  { kind: 'todo', label: 'compose.format.todo', glyph: '☑' },
];

export function FormatToolbar({ onFormat, onFiles, previewing, onTogglePreview }: { onFormat: (kind: FormatKind) => void; onFiles: (files: File[]) => void; previewing: boolean; onTogglePreview: () => void }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const inputId = useId();
  return (
    <div className="md-toolbar" role="toolbar" aria-label={t('compose.format.toolbar')}>
      <input
        ref={fileInput}
        id={inputId}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-label={t('compose.upload.button')}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
      <button type="button" className="icon-button" onClick={() => fileInput.current?.click()} aria-label={t('compose.upload.button')} title={t('compose.upload.button')} data-testid="compose-upload">
        <PaperclipIcon />
      </button>
      {BUTTONS.map((b) => {
        const name = t(b.label);
        const title = b.shortcut ? `${name} (${b.shortcut})` : name;
        return (
          <button key={b.kind} type="button" className={`icon-button md-format md-format-${b.kind}`} onClick={() => onFormat(b.kind)} disabled={previewing} aria-label={name} title={title} aria-keyshortcuts={b.shortcut ? b.shortcut.replace('⌘', 'Meta+').replace('⇧', 'Shift+').replace('Ctrl+', 'Control+') : undefined}>
            <span aria-hidden="true">{b.glyph}</span>
          </button>
        );
      })}
      <button type="button" className="icon-button md-preview-toggle" aria-pressed={previewing} onClick={onTogglePreview} title={t('compose.preview')} data-testid="compose-preview-toggle">
        {t('compose.preview')}
      </button>
    </div>
  );
}
