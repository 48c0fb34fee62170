import { FEATURE_LEVEL } from '@chat/contracts';
import { TEST_REALM_URL } from '@chat/testing';
import { startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('GET /server_settings', () => {
  it('answers without authentication, with every field of the spec', async () => {
    const res = await h.as().get('/server_settings');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: 'success',
      msg: '',
      svc_feature_level: FEATURE_LEVEL,
      svc_version: expect.any(String),
      svc_merge_base: expect.any(String),
      // The family's names of the same values: its clients require them.
      zulip_feature_level: FEATURE_LEVEL,
      zulip_version: expect.any(String),
      zulip_merge_base: expect.any(String),
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: expect.any(Boolean),
      require_email_format_usernames: expect.any(Boolean),
      realm_url: TEST_REALM_URL,
      realm_uri: TEST_REALM_URL,
      realm_name: 'Test Organization',
      realm_icon: expect.stringMatching(/^https?:\/\//),
      realm_description: expect.any(String),
      realm_web_public_access_enabled: false,
    });
    expect(Array.isArray(res.body.external_authentication_methods)).toBe(true);
    // The family's clients read the zulip_* names, with the same values.
    expect(res.body).toMatchObject({
      zulip_feature_level: FEATURE_LEVEL,
      zulip_version: res.body.svc_version,
      zulip_merge_base: res.body.svc_merge_base,
    });
    for (const key of ['password', 'dev', 'email', 'ldap', 'remoteuser', 'saml', 'openid connect']) {
      expect(typeof res.body.authentication_methods[key]).toBe('boolean');
    }
  });

  it('renders the realm description as HTML', async () => {
    await h.db.realm.update({ where: { id: h.realm.realmId }, data: { description: 'We <3 **chat**' } });
    const res = await h.as().get('/server_settings');
    expect(res.body.realm_description).toBe('<p>We &lt;3 <strong>chat</strong></p>');
  });

  it('reports web-public access only when spectators are allowed and a web-public channel exists', async () => {
    await h.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { enable_spectator_access: true } } });
    expect((await h.as().get('/server_settings')).body.realm_web_public_access_enabled).toBe(false);
    await h.db.stream.create({ data: { realmId: h.realm.realmId, name: 'public', nameKey: 'public', isWebPublic: true } });
    expect((await h.as().get('/server_settings')).body.realm_web_public_access_enabled).toBe(true);
  });

  it('leaves out realm keys where no realm answers', async () => {
    const res = await h.as(undefined, 999999).get('/server_settings');
    expect(res.status).toBe(200);
    expect(res.body.svc_feature_level).toBe(FEATURE_LEVEL);
    expect(res.body).not.toHaveProperty('realm_name');
  });

  it('refuses requests that did not come through the gateway', async () => {
    const res = await fetch(`${h.app.url}/api/v1/server_settings`);
    expect(res.status).toBe(401);
    expect((await res.json()).result).toBe('error');
  });

  it('reports unsupported parameters', async () => {
    const res = await h.as().get('/server_settings?foo=1');
    expect(res.body.ignored_parameters_unsupported).toEqual(['foo']);
  });
});
