import { createServer, get, type Server } from 'node:http';
import { lookup } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoOutboundRequests, OutboundRequestError } from './outbound-guard.test-support';

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((_req, res) => res.end('local'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** The error a failed fetch carries (fetch wraps it in a TypeError). */
async function fetchError(url: string): Promise<unknown> {
  try {
    await fetch(url);
  } catch (error) {
    return (error as Error).cause ?? error;
  }
  throw new Error(`fetch ${url} was not refused`);
}

describe('outbound guard', () => {
  it('refuses global fetch to http://example.com and fails the test that tried', async () => {
    const error = await fetchError('http://example.com/');
    expect(error).toBeInstanceOf(OutboundRequestError);
    expect((error as Error).message).toMatch(/example\.com:80 refused/);
    // The test's own check afterwards: here it is taken, so this test itself passes.
    expect(() => assertNoOutboundRequests()).toThrow(/example\.com:80/);
  });

  it('refuses undici and node:http to a public address, with or without TLS', async () => {
    await expect(request('https://93.184.216.34/')).rejects.toBeInstanceOf(OutboundRequestError);
    const viaHttp = await new Promise<Error>((resolve) => {
      get('http://93.184.216.34/', () => resolve(new Error('answered'))).on('error', resolve);
    });
    expect(viaHttp).toBeInstanceOf(OutboundRequestError);
    expect(() => assertNoOutboundRequests()).toThrow(/93\.184\.216\.34:443.*93\.184\.216\.34:80/);
  });

  it('refuses to look up a public name', async () => {
    await expect(lookup('example.com')).rejects.toBeInstanceOf(OutboundRequestError);
    expect(() => assertNoOutboundRequests()).toThrow(/DNS lookup of example\.com/);
  });

  it('lets requests to this machine through', async () => {
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('local');
    expect(await (await fetch(`http://localhost:${port}/`)).text()).toBe('local');
    const res = await request(`http://127.0.0.1:${port}/`);
    expect(await res.body.text()).toBe('local');
    expect(() => assertNoOutboundRequests()).not.toThrow();
  });
});
