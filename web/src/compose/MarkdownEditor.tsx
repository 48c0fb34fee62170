/**
 * A Markdown text area with everything the family's compose box gives its text: the typeahead
 * (`@`, `#`, `:`, `/`), the formatting toolbar and its shortcuts, a preview rendered by the
 * server, and file uploads by button, paste and drop. The compose box uses it, and so can the
 * feed's inline message editing.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { api, errorText } from '../api';
import { t } from '../i18n';
import { useAppState } from '../state/store';
import { SuggestionRow, useTypeaheadContext } from './context';
import { applyFormat, enterSends, formatForKey, type FormatKind } from './format';
import { Listbox, useListbox } from './Listbox';
import { applySuggestion, autoTopicJump, completionsFor, escapeTopicCompletion, type Suggestion } from './typeahead';
import type { ComposeTarget } from './types';
import { UploadList, useUploads, type Uploads } from './Uploads';
import { FormatToolbar } from './FormatToolbar';
import '../styles/compose.css';

export interface MarkdownEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Enter (or Ctrl+Enter, per the person's setting) sends or saves. */
  onSubmit?: () => void;
  /** Escape with no suggestion list open. */
  onEscape?: () => void;
  onBlur?: () => void;
  /** The conversation written to: it decides the wildcards offered and the `#>` channel. */
  target?: ComposeTarget | null;
  label: string;
  placeholder?: string;
  id?: string;
  /** Changing it moves focus into the text. */
  focusTick?: number;
  autoFocus?: boolean;
  /** Uploads owned by the caller (the compose box takes drops outside the editor too). */
  uploads?: Uploads;
  textareaRef?: React.RefObject<HTMLTextAreaElement | null>;
  testId?: string;
}

export function useEnterSends(): boolean {
  return useAppState((s) => s.reg?.user_settings?.enter_sends) === true;
}

export function MarkdownEditor(props: MarkdownEditorProps) {
  const { value, onChange, onSubmit, onEscape, onBlur, target = null, label, placeholder, id, focusTick, autoFocus, testId } = props;
  const ownRef = useRef<HTMLTextAreaElement>(null);
  const ref = props.textareaRef ?? ownRef;
  const [cursor, setCursor] = useState(value.length);
  const [focused, setFocused] = useState(false);
  const [preview, setPreview] = useState<{ html?: string; error?: string } | null>(null);
  const pendingSelection = useRef<[number, number] | null>(null);
  const valueRef = useRef(value);
  valueRef.current = value;
  const enterSendsSetting = useEnterSends();
  const ctx = useTypeaheadContext(target);

  const ownUploads = useUploads({
    get: () => {
      const el = ref.current;
      const v = valueRef.current;
      return { value: v, start: el?.selectionStart ?? v.length, end: el?.selectionEnd ?? v.length };
    },
    set: (v, caret) => {
      valueRef.current = v;
      onChange(v);
      if (caret !== undefined) pendingSelection.current = [caret, caret];
    },
  });
  const uploads = props.uploads ?? ownUploads;

  const completion = useMemo(() => (focused && !preview ? completionsFor(value.slice(0, cursor), value.slice(cursor), ctx) : null), [focused, preview, value, cursor, ctx]);
  const pick = (item: Suggestion) => {
    if (!completion) return;
    const applied = applySuggestion(value.slice(0, cursor), value.slice(cursor), completion, item);
    pendingSelection.current = applied.select ?? [applied.caret, applied.caret];
    setCursor(applied.caret);
    onChange(applied.value);
  };
  const listbox = useListbox<Suggestion>(completion?.items ?? [], `${completion?.kind}:${completion?.start}:${completion?.query}`, (item) => pick(item), () => {
    if (completion?.kind !== 'topic') return;
    const before = escapeTopicCompletion(value.slice(0, cursor));
    if (before !== null) setText(before + value.slice(cursor), before.length);
  });

  const setText = (v: string, caretStart: number, caretEnd = caretStart) => {
    pendingSelection.current = [caretStart, caretEnd];
    setCursor(caretEnd);
    onChange(v);
  };

  // The selection is set after React has written the new value.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (pendingSelection.current) {
      const [a, b] = pendingSelection.current;
      pendingSelection.current = null;
      el.setSelectionRange(a, b);
    }
    // Grows with its text up to the height the stylesheet allows.
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + 2}px`;
  }, [value, preview]);

  useEffect(() => {
    if (focusTick === undefined && !autoFocus) return;
    const el = ref.current;
    if (!el) return;
    el.focus();
    const end = el.value.length;
    el.setSelectionRange(end, end);
    setCursor(end);
  }, [focusTick]);

  const format = (kind: FormatKind) => {
    const el = ref.current;
    const next = applyFormat(kind, { value, start: el?.selectionStart ?? value.length, end: el?.selectionEnd ?? value.length }, {
      url: t('compose.format.url_placeholder'),
      spoilerHeader: t('compose.format.spoiler_header'),
      pollQuestion: t('compose.slash.poll_placeholder'),
      pollOption: t('compose.format.poll_option'),
      todoTitle: t('compose.slash.todo_placeholder'),
      todoTask: t('compose.format.todo_task'),
    });
    setPreview(null);
    setText(next.value, next.start, next.end);
    el?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (listbox.onKeyDown(e)) return;
    const kind = formatForKey(e);
    if (kind) {
      e.preventDefault();
      format(kind);
      return;
    }
    if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
      if (onSubmit && enterSends(e, enterSendsSetting)) {
        e.preventDefault();
        onSubmit();
      } else if (e.ctrlKey || e.metaKey || e.altKey) {
        // With Enter sending, a modified Enter is the new line (the browser adds none itself).
        e.preventDefault();
        const el = e.currentTarget;
        const at = el.selectionStart;
        setText(value.slice(0, at) + '\n' + value.slice(el.selectionEnd), at + 1);
      }
      return;
    }
    if (e.key === 'Escape' && onEscape) {
      e.preventDefault();
      onEscape();
    }
  };

  const onInput = (v: string, caret: number) => {
    const jump = autoTopicJump(v.slice(0, caret));
    if (jump !== null) return setText(jump + v.slice(caret), jump.length);
    setCursor(caret);
    onChange(v);
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...e.clipboardData.files];
    // Rich copies (a spreadsheet's cells) carry a picture of themselves too: text wins then.
    if (!files.length || e.clipboardData.getData('text/plain')) return;
    e.preventDefault();
    uploads.add(files);
  };
  const onDrop = (e: DragEvent) => {
    if (!e.dataTransfer.files.length) return;
    e.preventDefault();
    e.stopPropagation();
    uploads.add([...e.dataTransfer.files]);
  };

  const togglePreview = () => {
    if (preview) {
      setPreview(null);
      requestAnimationFrame(() => ref.current?.focus());
      return;
    }
    setPreview({});
    if (!value.trim()) return setPreview({ html: '' });
    api.render(value).then(
      (r) => setPreview((p) => (p ? { html: r.rendered } : p)),
      (err) => setPreview((p) => (p ? { error: errorText(err) } : p)),
    );
  };

  const textareaId = id ?? `${listbox.id}-text`;
  return (
    <div className="md-editor" onDragOver={(e) => e.dataTransfer.types.includes('Files') && e.preventDefault()} onDrop={onDrop} data-testid={testId}>
      <div className="md-editor-field">
        <Listbox state={listbox} label={t('compose.suggestions')} render={(item) => <SuggestionRow item={item} />} onPick={pick} testId="compose-typeahead" />
        <label className="visually-hidden" htmlFor={textareaId}>
          {label}
        </label>
        {preview && (
          <div className="md-preview message-content" aria-live="polite" aria-busy={preview.html === undefined && !preview.error} data-testid="compose-preview">
            {preview.error ? <p role="alert">{t('misc.error', { error: preview.error })}</p> : preview.html === undefined ? <p>{t('compose.preview_loading')}</p> : preview.html ? <div dangerouslySetInnerHTML={{ __html: preview.html }} /> : <p className="md-preview-empty">{t('compose.preview_empty')}</p>}
          </div>
        )}
        <textarea
          ref={ref}
          id={textareaId}
          value={value}
          hidden={!!preview}
          placeholder={placeholder}
          rows={2}
          {...listbox.fieldProps(false)}
          onChange={(e) => onInput(e.target.value, e.target.selectionStart)}
          onSelect={(e) => setCursor(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onFocus={() => setFocused(true)}
          onBlur={() => {
            setFocused(false);
            onBlur?.();
          }}
        />
      </div>
      <UploadList uploads={uploads} />
      <FormatToolbar onFormat={format} onFiles={uploads.add} previewing={!!preview} onTogglePreview={togglePreview} />
    </div>
  );
}
