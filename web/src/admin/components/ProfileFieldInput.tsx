/** One custom profile field's input, by the field's type (text, long text, choice, date, link, people, account). */
import { useId } from 'react';
import type { User } from '@chat/client';
import { t } from '../../i18n';
import { UserPicker } from './UserPicker';

export interface ProfileFieldDef {
  id: number;
  type: number;
  name: string;
  hint?: string;
  field_data?: string;
  order?: number;
  required?: boolean;
  editable_by_user?: boolean;
  display_in_profile_summary?: boolean;
}

export const FIELD_TYPES = { SHORT_TEXT: 1, LONG_TEXT: 2, SELECT: 3, DATE: 4, URL: 5, USER: 6, EXTERNAL_ACCOUNT: 7, PRONOUNS: 8 } as const;

/** A choice field's options, `{"0": {"text": "Red", "order": "1"}}`, in their order. */
export function choicesOf(field: Pick<ProfileFieldDef, 'field_data'>): Array<{ key: string; text: string }> {
  try {
    const data = JSON.parse(field.field_data || '{}') as Record<string, { text?: string; order?: string | number }>;
    return Object.entries(data)
      .map(([key, v]) => ({ key, text: String(v?.text ?? key), order: Number(v?.order ?? 0) }))
      .sort((a, b) => a.order - b.order)
      .map(({ key, text }) => ({ key, text }));
  } catch {
    return [];
  }
}

export function ProfileFieldInput({ field, value, onChange, users }: { field: ProfileFieldDef; value: string | number[]; onChange: (v: string | number[]) => void; users: User[] }) {
  const id = useId();
  if (field.type === FIELD_TYPES.USER) {
    return <UserPicker label={field.name} value={Array.isArray(value) ? value : []} onChange={onChange} users={users} />;
  }
  const text = typeof value === 'string' ? value : '';
  const hint = field.hint ? <div id={`${id}-hint`} className="setting-hint">{field.hint}</div> : null;
  const described = field.hint ? `${id}-hint` : undefined;
  return (
    <div className="setting-row setting-text-field">
      <div className="setting-text">
        <label htmlFor={id}>{field.name}</label>
        {hint}
      </div>
      <div className="setting-control">
        {field.type === FIELD_TYPES.SELECT ? (
          <select id={id} value={text} onChange={(e) => onChange(e.target.value)} aria-describedby={described}>
            <option value="">{t('admin.profile_field.unset')}</option>
            {choicesOf(field).map((c) => (
              <option key={c.key} value={c.key}>{c.text}</option>
            ))}
          </select>
        ) : field.type === FIELD_TYPES.LONG_TEXT ? (
          <textarea id={id} rows={3} value={text} onChange={(e) => onChange(e.target.value)} aria-describedby={described} />
        ) : (
          <input
            id={id}
            type={field.type === FIELD_TYPES.DATE ? 'date' : field.type === FIELD_TYPES.URL ? 'url' : 'text'}
            value={text}
            onChange={(e) => onChange(e.target.value)}
            aria-describedby={described}
          />
        )}
      </div>
    </div>
  );
}
