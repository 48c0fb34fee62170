/**
 * The bots the person owns (register's realm_bots): create one (generic; incoming webhook,
 * with its integration, the integration's options and then the URL to paste; outgoing
 * webhook, with the URL its triggers are posted to and their format),
 * edit, deactivate or reactivate it, and see its API key and zuliprc.
 */
import { useId, useRef, useState } from 'react';
import { errorText } from '../../api';
import { t, type StringKey } from '../../i18n';
import { useAppState, useReg } from '../../state/store';
import { SaveState, SettingsGroup, SettingsSection, useSave } from '../controls';
import { createBot, updateBotAvatar } from '../lib/calls';
import { configData } from '../lib/webhookUrl';
import { BotCard, type Bot } from './BotCard';
import { IntegrationPicker, useIntegrations, WebhookUrlDialog } from './IncomingWebhook';

const NONE: Bot[] = [];

export function BotsSection() {
  const me = useReg().user_id;
  const bots = useAppState((s) => (s.reg?.realm_bots as Bot[] | undefined) ?? NONE).filter((b) => b.owner_id === me);
  const active = bots.filter((b) => b.is_active !== false);
  const inactive = bots.filter((b) => b.is_active === false);
  return (
    <SettingsSection title={t('settings.nav.bots')} description={t('settings.bots.about')} testId="settings-bots">
      <AddBot />
      <SettingsGroup title={t('settings.bots.active')}>
        {active.length === 0 && <p className="settings-note">{t('settings.bots.none')}</p>}
        {active.map((b) => <BotCard key={b.user_id} bot={b} />)}
      </SettingsGroup>
      {inactive.length > 0 && (
        <SettingsGroup title={t('settings.bots.inactive')}>
          {inactive.map((b) => <BotCard key={b.user_id} bot={b} />)}
        </SettingsGroup>
      )}
    </SettingsSection>
  );
}

const BOT_TYPES = [1, 2, 3] as const;
const INCOMING_WEBHOOK = 2;
const OUTGOING_WEBHOOK = 3;
const INTERFACES = [1, 2] as const;

function AddBot() {
  const reg = useReg();
  const id = useId();
  const botIds = useAppState((s) => ((s.reg?.realm_bots as Bot[] | undefined) ?? NONE).map((b) => b.user_id).join(','));
  const save = useSave(botIds);
  const [type, setType] = useState<number>(1);
  const [fullName, setFullName] = useState('');
  const [shortName, setShortName] = useState('');
  const [payloadUrl, setPayloadUrl] = useState('');
  const [iface, setIface] = useState<number>(1);
  const [notice, setNotice] = useState('');
  const integrations = useIntegrations();
  const [integration, setIntegration] = useState('');
  const [config, setConfig] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<{ user_id: number; full_name: string; apiKey: string; integration: string } | null>(null);
  const chosen = integrations.find((i) => i.name === integration);
  const file = useRef<HTMLInputElement>(null);
  const domain = String(reg.realm_bot_domain ?? location.hostname);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const name = fullName.trim();
    const avatar = file.current?.files?.[0];
    let createdId = 0;
    setNotice('');
    // Done when the realm_bot event has added the new bot to the store.
    save.save(
      async () => {
        // The URL goes JSON-encoded, as the family's web app sends it.
        const service = type === OUTGOING_WEBHOOK ? { payload_url: JSON.stringify(payloadUrl.trim()), interface_type: iface }
          : type === INCOMING_WEBHOOK && chosen ? incomingService(chosen.name, configData(chosen.config_options, config)) : {};
        const answer = await createBot({ full_name: name, short_name: shortName.trim(), bot_type: type, ...service });
        createdId = answer.user_id;
        if (type === INCOMING_WEBHOOK && chosen) setCreated({ user_id: answer.user_id, full_name: name, apiKey: answer.api_key, integration: chosen.name });
        setConfig({});
        setFullName('');
        setShortName('');
        setPayloadUrl('');
        if (file.current) file.current.value = '';
        setNotice(t('settings.bots.created', { name }));
        if (avatar) {
          try {
            await updateBotAvatar(answer.user_id, avatar);
          } catch (err) {
            setNotice(t('settings.bots.avatar_failed', { error: errorText(err) }));
          }
        }
      },
      undefined,
      (now) => createdId !== 0 && now.split(',').includes(String(createdId)),
    );
  };

  return (
    <SettingsGroup title={t('settings.bots.add')}>
      <form className="settings-dialog-form bot-form" onSubmit={submit} data-testid="add-bot">
        <label htmlFor={`${id}-type`}>{t('settings.bots.type')}</label>
        <select id={`${id}-type`} value={type} onChange={(e) => setType(Number(e.target.value))}>
          {BOT_TYPES.map((b) => <option key={b} value={b}>{t(`settings.bots.type.${b}` as StringKey)}</option>)}
        </select>
        <label htmlFor={`${id}-name`}>{t('settings.bots.full_name')}</label>
        <input id={`${id}-name`} type="text" required maxLength={100} value={fullName} onChange={(e) => setFullName(e.target.value)} />
        <label htmlFor={`${id}-short`}>{t('settings.bots.short_name', { domain })}</label>
        <input id={`${id}-short`} type="text" required maxLength={100} value={shortName} onChange={(e) => setShortName(e.target.value)} autoCapitalize="off" spellCheck={false} />
        {type === INCOMING_WEBHOOK && (
          <>
            <IntegrationPicker value={integration} onChange={(next) => { setIntegration(next); setConfig({}); }} />
            {chosen?.config_options.map((o) => (
              <div key={o.key} className="settings-dialog-form">
                <label htmlFor={`${id}-config-${o.key}`}>{o.label}</label>
                <input id={`${id}-config-${o.key}`} type="text" value={config[o.key] ?? ''} onChange={(e) => setConfig({ ...config, [o.key]: e.target.value })} autoComplete="off" spellCheck={false} />
              </div>
            ))}
          </>
        )}
        {type === OUTGOING_WEBHOOK && (
          <>
            <label htmlFor={`${id}-url`}>{t('settings.bots.payload_url')}</label>
            <input id={`${id}-url`} type="url" required value={payloadUrl} onChange={(e) => setPayloadUrl(e.target.value)} spellCheck={false} />
            <label htmlFor={`${id}-interface`}>{t('settings.bots.interface')}</label>
            <select id={`${id}-interface`} value={iface} onChange={(e) => setIface(Number(e.target.value))}>
              {INTERFACES.map((i) => <option key={i} value={i}>{t(`settings.bots.interface.${i}` as StringKey)}</option>)}
            </select>
          </>
        )}
        <label htmlFor={`${id}-avatar`}>{t('settings.bots.avatar')}</label>
        <input id={`${id}-avatar`} ref={file} type="file" accept="image/*" />
        <div className="settings-actions">
          <button type="submit" className="primary" disabled={!fullName.trim() || !shortName.trim() || (type === OUTGOING_WEBHOOK && !payloadUrl.trim()) || (type === INCOMING_WEBHOOK && !chosen) || save.status.kind === 'saving'} aria-describedby={`${id}-state`}>
            {t('settings.bots.create')}
          </button>
          <SaveState id={`${id}-state`} status={save.status} />
        </div>
        {notice && <p className="settings-note" role="status">{notice}</p>}
      </form>
      {created && <WebhookUrlDialog bot={created} apiKey={created.apiKey} integration={created.integration} onClose={() => setCreated(null)} />}
    </SettingsGroup>
  );
}

/** POST /bots' fields for an incoming-webhook bot: its integration and, when filled, its options. */
function incomingService(serviceName: string, config: string | undefined): Record<string, string> {
  return config ? { service_name: serviceName, config_data: config } : { service_name: serviceName };
}
