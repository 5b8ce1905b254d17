import { describe, expect, it } from 'vitest';
import { harness, listening } from './helpers.js';

const A = '/v1/agl';

describe('shared-secret auth', () => {
  it('without a configured token every route is open', async () => {
    const { call } = await harness();
    expect((await call('GET', `${A}/statistics`)).status).toBe(200);
  });

  it('requires Bearer or x-api-key on every route but health', async () => {
    const { call } = await harness({ token: 't0ken' });
    expect((await call('GET', `${A}/health`)).status).toBe(200);

    const missing = await call('GET', `${A}/statistics`);
    expect(missing.status).toBe(401);
    expect(missing.json.detail).toMatch(/token/);
    expect(missing.headers['www-authenticate']).toBe('Bearer');

    expect(
      (await call('GET', `${A}/statistics`, undefined, { authorization: 'Bearer wrong' })).status,
    ).toBe(401);
    expect(
      (await call('GET', `${A}/statistics`, undefined, { authorization: 'Bearer t0ke' })).status,
    ).toBe(401);
    expect(
      (await call('GET', `${A}/statistics`, undefined, { authorization: 't0ken' })).status,
    ).toBe(401);
    expect(
      (await call('GET', `${A}/statistics`, undefined, { authorization: 'Bearer t0ken' })).status,
    ).toBe(200);
    expect((await call('GET', `${A}/statistics`, undefined, { 'x-api-key': 't0ken' })).status).toBe(
      200,
    );

    const write = await call('POST', `${A}/rollouts`, { input: 1 });
    expect(write.status).toBe(401);
    const stats = await call('GET', `${A}/statistics`, undefined, { 'x-api-key': 't0ken' });
    expect(stats.json.total_rollouts).toBe(0);

    const traces = await call('POST', '/v1/traces', {}, {});
    expect(traces.status).toBe(401);
  });

  it('works over a real socket', async () => {
    const { url } = await listening({ token: 'abc' });
    expect((await fetch(`${url}${A}/health`)).status).toBe(200);
    expect((await fetch(`${url}${A}/rollouts`)).status).toBe(401);
    const ok = await fetch(`${url}${A}/rollouts`, { headers: { authorization: 'Bearer abc' } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ items: [], total: 0 });
  });
});

describe('CORS', () => {
  it('no CORS headers unless origins are configured', async () => {
    const { call } = await harness();
    const res = await call('GET', `${A}/health`, undefined, { origin: 'http://dash.example' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("upstream's test_cors_allows_specific_origin: GET and preflight both 200 with the origin", async () => {
    const { call } = await harness({ corsOrigins: ['http://localhost:3000'] });
    const origin = 'http://localhost:3000';
    const get = await call('GET', `${A}/health`, undefined, { origin });
    expect(get.status).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBe(origin);
    expect(get.headers['access-control-allow-credentials']).toBe('true');
    const preflight = await call('OPTIONS', `${A}/health`, undefined, {
      origin,
      'access-control-request-method': 'GET',
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    const methods = String(preflight.headers['access-control-allow-methods']).split(',');
    expect(methods.map((m) => m.trim())).toContain('GET');
  });

  it('allows the configured origins (with credentials), not others', async () => {
    const { call } = await harness({ corsOrigins: ['http://dash.example'] });
    const allowed = await call('GET', `${A}/health`, undefined, { origin: 'http://dash.example' });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://dash.example');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const other = await call('GET', `${A}/health`, undefined, { origin: 'http://evil.example' });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('"*" reflects any origin; preflights pass even when a token is required', async () => {
    const { call } = await harness({ corsOrigins: ['*'], token: 'tok' });
    const preflight = await call('OPTIONS', `${A}/rollouts`, undefined, {
      origin: 'http://anything.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,authorization',
    });
    expect(preflight.status).toBe(200); // upstream (Starlette) answers preflights 200
    expect(preflight.headers['access-control-allow-origin']).toBe('http://anything.example');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');

    const denied = await call('GET', `${A}/rollouts`, undefined, {
      origin: 'http://anything.example',
    });
    expect(denied.status).toBe(401);
  });
});
