/**
 * Incoming-webhook bots: the searchable list of integrations (register's
 * `realm_incoming_webhook_bots`) and the dialog that builds the URL to paste into the
 * provider's settings — channel, optional topic, events and the integration's URL options —
 * with a Copy button. The bot's key is fetched when the dialog opens for an existing bot.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { useAppState, useReg } from '../../state/store';
import { Dialog } from '../../ui/Dialog';
import { botApiKey } from '../lib/calls';
import { searchIntegrations, webhookUrl, type IncomingIntegration } from '../lib/webhookUrl';

const NONE: IncomingIntegration[] = [];

export function useIntegrations(): IncomingIntegration[] {
  return useAppState((s) => (s.reg?.realm_incoming_webhook_bots as IncomingIntegration[] | undefined) ?? NONE);
}

/** A search box over a list box of integrations; choosing one calls `onChange` with its name. */
export function IntegrationPicker({ value, onChange }: { value: string; onChange: (name: string) => void }) {
  const id = useId();
  const all = useIntegrations();
  const [query, setQuery] = useState('');
  const shown = useMemo(() => searchIntegrations(all, query), [all, query]);
  // The chosen one stays listed while the search hides it, so the list box shows the choice.
  const chosen = all.find((i) => i.name === value);
  const options = chosen && !shown.includes(chosen) ? [chosen, ...shown] : shown;
  return (
    <div className="integration-picker">
      <label htmlFor={`${id}-search`}>{t('settings.webhook.search')}</label>
      <input id={`${id}-search`} type="search" value={query} onChange={(e) => setQuery(e.target.value)} autoCapitalize="off" spellCheck={false} aria-describedby={`${id}-count`} />
      <span id={`${id}-count`} className="setting-hint" role="status">{t('settings.webhook.found', { count: shown.length })}</span>
      <label htmlFor={`${id}-list`}>{t('settings.webhook.integration')}</label>
      <select id={`${id}-list`} size={Math.max(2, Math.min(6, options.length))} required value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((i) => <option key={i.name} value={i.name}>{i.display_name}</option>)}
      </select>
    </div>
  );
}

/** The URL to paste for `bot`; `apiKey` when just created (otherwise fetched), `integration` when known. */
export function WebhookUrlDialog({ bot, apiKey, integration, onClose }: { bot: { user_id: number; full_name: string }; apiKey?: string; integration?: string; onClose: () => void }) {
  const id = useId();
  const reg = useReg();
  const all = useIntegrations();
  const [key, setKey] = useState(apiKey ?? '');
  const [keyError, setKeyError] = useState('');
  const [name, setName] = useState(integration ?? all[0]?.name ?? '');
  const [channelId, setChannelId] = useState<number | null>(null);
  const [topic, setTopic] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [urlOptions, setUrlOptions] = useState<Record<string, string>>({});
  const [copied, setCopied] = useState<'' | 'yes' | 'no'>('');
  const chosen = all.find((i) => i.name === name);
  const channels = useMemo(() => [...reg.subscriptions].sort((a, b) => a.name.localeCompare(b.name)), [reg.subscriptions]);

  useEffect(() => {
    if (apiKey) return;
    botApiKey(bot.user_id).then((a) => setKey(a.api_key), (err: unknown) => setKeyError(errorText(err)));
  }, [bot.user_id, apiKey]);

  const url = key && chosen ? webhookUrl({ realmUrl: realmUrl(reg), integration: chosen.name, apiKey: key, channelId, topic, onlyEvents: events, allEvents: chosen.all_event_types, urlOptions }) : '';
  const pick = (next: string) => {
    setName(next);
    setEvents([]);
    setUrlOptions({});
    setCopied('');
  };
  const copy = () => {
    // Without clipboard access (an insecure origin) the URL is there to select and copy by hand.
    if (!navigator.clipboard) setCopied('no');
    else navigator.clipboard.writeText(url).then(() => setCopied('yes'), () => setCopied('no'));
  };

  return (
    <Dialog title={t('settings.webhook.url_title', { name: bot.full_name })} onClose={onClose} testId="webhook-url" footer={<button type="button" className="button" onClick={onClose}>{t('settings.done')}</button>}>
      <div className="settings-dialog-form webhook-url-form">
        <p className="setting-hint">{t('settings.webhook.url_about')}</p>
        {!integration && <IntegrationPicker value={name} onChange={pick} />}
        {integration && <p>{t('settings.webhook.for', { integration: chosen?.display_name ?? integration })}</p>}
        <label htmlFor={`${id}-channel`}>{t('settings.webhook.channel')}</label>
        <select id={`${id}-channel`} value={channelId ?? ''} onChange={(e) => { setChannelId(e.target.value ? Number(e.target.value) : null); setCopied(''); }}>
          <option value="">{t('settings.webhook.channel_none')}</option>
          {channels.map((c) => <option key={c.stream_id} value={c.stream_id}>{c.name}</option>)}
        </select>
        <label htmlFor={`${id}-topic`}>{t('settings.webhook.topic')}</label>
        <input id={`${id}-topic`} type="text" maxLength={60} value={topic} onChange={(e) => { setTopic(e.target.value); setCopied(''); }} aria-describedby={`${id}-topic-hint`} />
        <span id={`${id}-topic-hint`} className="setting-hint">{t('settings.webhook.topic_hint')}</span>
        {chosen?.url_options.map((o) => (
          <div key={o.key} className="settings-dialog-form">
            <label htmlFor={`${id}-opt-${o.key}`}>{o.label}</label>
            <input id={`${id}-opt-${o.key}`} type="text" value={urlOptions[o.key] ?? ''} onChange={(e) => { setUrlOptions({ ...urlOptions, [o.key]: e.target.value }); setCopied(''); }} spellCheck={false} />
          </div>
        ))}
        {chosen?.all_event_types && chosen.all_event_types.length > 0 && (
          <fieldset className="webhook-events">
            <legend>{t('settings.webhook.events')}</legend>
            <p className="setting-hint">{t('settings.webhook.events_hint')}</p>
            {chosen.all_event_types.map((ev) => (
              <label key={ev} className="checkbox-row">
                <input type="checkbox" checked={events.includes(ev)} onChange={(e) => { setEvents(e.target.checked ? [...events, ev] : events.filter((x) => x !== ev)); setCopied(''); }} />
                {ev}
              </label>
            ))}
          </fieldset>
        )}
        <label htmlFor={`${id}-url`}>{t('settings.webhook.url')}</label>
        {keyError ? (
          <p className="settings-error" role="alert">{t('settings.webhook.key_failed', { error: keyError })}</p>
        ) : (
          <textarea id={`${id}-url`} className="webhook-url" readOnly rows={4} value={url || t('settings.loading')} onFocus={(e) => e.target.select()} spellCheck={false} data-testid="webhook-url-text" />
        )}
        <div className="settings-actions">
          <button type="button" className="primary" disabled={!url} onClick={copy}>{t('settings.webhook.copy')}</button>
          <span role="status" aria-live="polite">
            {copied === 'yes' && <span className="save-saved">{t('settings.webhook.copied')}</span>}
            {copied === 'no' && <span className="settings-error">{t('settings.webhook.copy_failed')}</span>}
          </span>
        </div>
      </div>
    </Dialog>
  );
}

/** The organization's address as register names it, else the one this page was loaded from. */
function realmUrl(reg: { realm_url?: unknown; realm_uri?: unknown }): string {
  const named = reg.realm_url ?? reg.realm_uri;
  return typeof named === 'string' && named ? named : location.origin;
}
