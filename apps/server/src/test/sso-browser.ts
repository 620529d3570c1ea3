/**
 * A minimal browser for sign-in tests: follows redirects by hand, keeps cookies, and submits the
 * development identity provider's picker the way a person would.
 */
export class TestBrowser {
  private cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }
  setCookie(name: string, value: string) {
    this.cookies.set(name, value);
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(new URL(url, this.baseUrl), { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Follows redirects until the web app's /auth/callback; returns its URL. */
  async followToCallback(start: string, pickEmail?: string): Promise<URL> {
    let url = start;
    for (let hop = 0; hop < 15; hop++) {
      const parsed = new URL(url, this.baseUrl);
      if (parsed.pathname === '/auth/callback') return parsed;
      const res = await this.fetch(url);
      if (res.status >= 300 && res.status < 400) {
        url = res.headers.get('location')!;
        continue;
      }
      const html = await res.text();
      // Signing someone else in ends the provider's session of the one before: a form a browser posts itself.
      const ending = /<form method="post" action="([^"]+\/session\/end\/confirm)"/.exec(html)?.[1];
      if (ending) {
        const fields = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)];
        const ended = await this.fetch(ending.replace(/&amp;/g, '&'), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields.map((f): [string, string] => [f[1]!, f[2]!])).toString(),
        });
        url = ended.headers.get('location')!;
        continue;
      }
      const action = /<form method="post" action="([^"]+\/login)"/.exec(html)?.[1];
      if (!action || !pickEmail) throw new Error(`stuck at ${url} (${res.status}): ${html.slice(0, 200)}`);
      const posted = await this.fetch(action.replace(/&amp;/g, '&'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: pickEmail }).toString(),
      });
      url = posted.headers.get('location')!;
    }
    throw new Error('too many redirects');
  }
}
