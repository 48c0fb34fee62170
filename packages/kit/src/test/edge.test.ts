import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { errors } from '@chat/contracts';
import { createLogger, edgeIdentity, errorRenderer, isInternalHeader, renderError, stripInternalHeaders, verifyIdentity, signIdentity } from '..';

const log = createLogger('kit-test', 'silent');

describe('edge helpers', () => {
  it('strips every internal header a client sent, and only those', () => {
    const headers: http.IncomingHttpHeaders = { host: 'chat.test', 'x-chat-identity': 'forged', 'x-chat-other': 'x', 'x-request-id': 'r1', authorization: 'Basic x' };
    stripInternalHeaders(headers);
    expect(headers).toEqual({ host: 'chat.test', 'x-request-id': 'r1', authorization: 'Basic x' });
    expect(isInternalHeader('x-chat-identity')).toBe(true);
    expect(isInternalHeader('x-forwarded-for')).toBe(false);
  });

  it('builds the identity from the realm, the caller if any and the client address if known', () => {
    const realm = { id: 3, url: 'http://sub.chat.test', deactivated: false };
    const user = { userId: 9, email: 'a@x', role: 400, isBot: false, deliveryEmail: 'real@x', isActive: true };
    expect(edgeIdentity(realm, user, '10.0.0.1')).toEqual({ realmId: 3, realmUrl: 'http://sub.chat.test', clientIp: '10.0.0.1', userId: 9, email: 'a@x', role: 400, isBot: false });
    expect(edgeIdentity(realm, user)).toEqual({ realmId: 3, realmUrl: 'http://sub.chat.test', userId: 9, email: 'a@x', role: 400, isBot: false });
    expect(edgeIdentity(realm, undefined, '10.0.0.1')).toEqual({ realmId: 3, realmUrl: 'http://sub.chat.test', clientIp: '10.0.0.1' });
    const secret = 'test-internal-secret-0123456789';
    expect(verifyIdentity(secret, signIdentity(secret, edgeIdentity(realm, user)))).toMatchObject({ realmId: 3, userId: 9 });
    // A browser session's caller carries its session through signing; an API key's has none.
    const bySession = edgeIdentity(realm, user, '10.0.0.1', 'sid-1');
    expect(bySession).toMatchObject({ userId: 9, sessionId: 'sid-1' });
    expect(verifyIdentity(secret, signIdentity(secret, bySession))).toEqual(bySession);
    expect(verifyIdentity(secret, signIdentity(secret, edgeIdentity(realm, user)))).not.toHaveProperty('sessionId');
    expect(edgeIdentity(realm, undefined, undefined, 'sid-1')).not.toHaveProperty('sessionId');
  });

  it('signs the same token for the same identity and second, which verifies to that identity', () => {
    const secret = 'test-internal-secret-0123456789';
    const identity = edgeIdentity({ id: 3, url: 'http://sub.chat.test' }, { userId: 9, email: 'ünï@x', role: 400, isBot: true }, '::1');
    const at = Math.floor(Date.now() / 1000);
    expect(signIdentity(secret, identity, at)).toBe(signIdentity(secret, identity, at));
    expect(signIdentity(secret, identity, at)).not.toBe(signIdentity(secret, identity, at - 1));
    expect(verifyIdentity(secret, signIdentity(secret, identity))).toEqual(identity);
    expect(verifyIdentity('another-secret-0123456789', signIdentity(secret, identity))).toBeNull();
  });

  it('keeps a verified token only until its expiry, for its own secret, and hands out copies', () => {
    const secret = 'test-internal-secret-0123456789';
    const identity = edgeIdentity({ id: 4, url: 'http://sub.chat.test' }, { userId: 11, email: 'b@x', role: 400, isBot: false });
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00.000Z') });
    try {
      const now = Math.floor(Date.now() / 1000);
      // Signed 59 s ago with the 60 s lifetime: one second left.
      const token = signIdentity(secret, identity, now - 59);
      for (let i = 0; i < 2; i++) {
        const got = verifyIdentity(secret, token)!;
        expect(got).toEqual(identity);
        got.userId = 999;
      }
      expect(verifyIdentity(secret, token)).toEqual(identity);
      expect(verifyIdentity('another-secret-0123456789', token)).toBeNull();
      jest.setSystemTime(Date.now() + 999);
      expect(verifyIdentity(secret, token)).toEqual(identity);
      jest.setSystemTime(Date.now() + 1);
      expect(verifyIdentity(secret, token)).toBeNull();
      // A token altered after signing fails, whatever was verified before it.
      const fresh = signIdentity(secret, identity);
      expect(verifyIdentity(secret, fresh)).toEqual(identity);
      expect(verifyIdentity(secret, `${fresh.slice(0, -2)}${fresh.endsWith('AA') ? 'AB' : 'AA'}`)).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  it('renders the same envelope and headers on a bare Node response as through express', async () => {
    const failures = [errors.invalidApiKey(), errors.rateLimited(7), errors.streamDoesNotExist('nope'), new Error('kaboom')];
    const bare = http.createServer((req, res) => renderError(log, res, failures[Number(req.url!.slice(1))], { method: req.method, path: req.url }));
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const app = express();
    app.get('/:n', (req, _res, next) => next(failures[Number(req.params.n)]));
    app.use(errorRenderer(log));
    try {
      const url = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
      for (const n of failures.keys()) {
        const [a, b] = await Promise.all([request(url).get(`/${n}`), request(app).get(`/${n}`)]);
        expect(a.status).toBe(b.status);
        expect(a.body).toEqual(b.body);
        for (const name of ['content-type', 'content-length', 'retry-after', 'www-authenticate']) expect(a.headers[name]).toBe(b.headers[name]);
      }
      const limited = await request(url).get('/1');
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe('7');
      expect((await request(url).get('/0')).headers['www-authenticate']).toBe('Basic realm="chat"');
      expect((await request(url).get('/3')).body).toMatchObject({ result: 'error', code: 'INTERNAL_SERVER_ERROR' });
    } finally {
      await new Promise((resolve) => bare.close(resolve));
    }
  });
});
