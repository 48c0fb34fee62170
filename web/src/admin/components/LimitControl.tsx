/**
 * A limit chosen from a few common values or typed: message edit and delete limits (seconds,
 * typed in minutes, null for "any time"), message retention (days, -1 for "forever") and the
 * waiting period for new members (days, 0 for none). A typed value that is not a number is
 * kept as NaN, so the form can say so before anything is sent.
 */
import { useEffect, useId, useState } from 'react';
import { t, type StringKey } from '../../i18n';
import { minutesToSeconds, parseDays, timeLimitChoice, TIME_LIMIT_CHOICES } from '../formModel';

type Kind = 'timeLimit' | 'retention' | 'days';

interface Preset {
  value: number | null;
  label: StringKey;
}

function presets(kind: Kind, nullable = false): Preset[] {
  if (kind === 'timeLimit') return TIME_LIMIT_CHOICES.map((c) => ({ value: c.seconds, label: c.label }));
  if (kind === 'retention') return [...(nullable ? [{ value: null, label: 'admin.retention.default' as const }] : []), { value: -1, label: 'admin.retention.forever' }];
  return [
    { value: 0, label: 'admin.waiting.none' },
    { value: 3, label: 'admin.waiting.3d' },
  ];
}

function presetKey(kind: Kind, value: number | null, nullable = false): string {
  if (kind === 'timeLimit') return timeLimitChoice(value);
  const i = presets(kind, nullable).findIndex((p) => p.value === value);
  return i >= 0 ? String(i) : 'custom';
}

/** The typed box's text for a value (minutes for time limits, days otherwise). */
function customText(kind: Kind, value: number | null): string {
  if (value === null || Number.isNaN(value) || value < 0) return '';
  return String(kind === 'timeLimit' ? Math.round(value / 60) : value);
}

export interface LimitControlProps {
  kind: Kind;
  label: string;
  value: number | null;
  onChange: (value: number | null) => void;
  disabled?: boolean;
  invalid?: string | null;
  name?: string;
  /** Offers "the organization's default" (null), for a channel's retention. */
  nullable?: boolean;
}

export function LimitControl({ kind, label, value, onChange, disabled, invalid, name, nullable }: LimitControlProps) {
  const id = useId();
  const list = presets(kind, nullable);
  const [custom, setCustom] = useState(presetKey(kind, value, nullable) === 'custom');
  const [text, setText] = useState(customText(kind, value));
  const parse = (s: string) => (kind === 'timeLimit' ? minutesToSeconds(s) : parseDays(s, kind === 'days' ? 0 : 1));
  // A value changed elsewhere (an event, or Discard) shows as itself; the one being typed stays typed.
  useEffect(() => {
    if (custom && (parse(text) === value || (Number.isNaN(value) && Number.isNaN(parse(text))))) return;
    if (presetKey(kind, value, nullable) !== 'custom') setCustom(false);
    else if (value !== null && !Number.isNaN(value)) {
      setCustom(true);
      setText(customText(kind, value));
    }
  }, [kind, value, nullable]);
  const choice = custom ? 'custom' : presetKey(kind, value, nullable);
  return (
    <div className="setting-row setting-limit" data-setting={name}>
      <div className="setting-text">
        <label htmlFor={id}>{label}</label>
      </div>
      <div className="setting-control">
        <select
          id={id}
          value={choice}
          disabled={disabled}
          onChange={(e) => {
            if (e.target.value === 'custom') {
              setCustom(true);
              onChange(parse(text));
            } else {
              setCustom(false);
              onChange(list[Number(e.target.value)]!.value);
            }
          }}
        >
          {list.map((p, i) => (
            <option key={i} value={String(i)}>{t(p.label)}</option>
          ))}
          <option value="custom">{t('admin.limit.custom')}</option>
        </select>
        {custom && (
          <>
            <label htmlFor={`${id}-custom`} className="limit-unit">{t(kind === 'timeLimit' ? 'admin.limit.minutes' : 'admin.limit.days')}</label>
            <input
              id={`${id}-custom`}
              type="text"
              inputMode="numeric"
              size={6}
              value={text}
              disabled={disabled}
              aria-invalid={!!invalid}
              aria-describedby={invalid ? `${id}-invalid` : undefined}
              onChange={(e) => {
                setText(e.target.value);
                onChange(parse(e.target.value));
              }}
            />
          </>
        )}
        {invalid && <span id={`${id}-invalid`} className="settings-error">{invalid}</span>}
      </div>
    </div>
  );
}
