/**
 * Proxy URLs come from a provider template such as
 * `http://user-[[country-{country}-]][[city-{city}-]]session-{session}:secret@gate.example.com:7000`.
 * `{country}`, `{state}`, `{city}` take the credential's proxy preference, `{session}` a value that changes
 * when the proxy is replaced. A `[[...]]` segment is dropped when any placeholder inside it is empty.
 */
export interface ProxyLocation {
  country: string | null;
  state: string | null;
  city: string | null;
}

const PLACEHOLDER = /\{(country|state|city|session)\}/g;
const OPTIONAL_SEGMENT = /\[\[(.*?)\]\]/g;

/** Lower case, spaces as underscores, and nothing that could change the URL's structure. */
function placeholderValue(value: string | null | undefined): string {
  if (!value) return '';
  return encodeURIComponent(value.trim().toLowerCase().replace(/\s+/g, '_'));
}

export function renderProxyUrl(template: string, location: ProxyLocation, session: string): string {
  const values: Record<string, string> = {
    country: placeholderValue(location.country),
    state: placeholderValue(location.state),
    city: placeholderValue(location.city),
    session: placeholderValue(session),
  };
  const fill = (text: string) => text.replace(PLACEHOLDER, (_, name: string) => values[name]!);
  return fill(
    template.replace(OPTIONAL_SEGMENT, (_, segment: string) =>
      [...segment.matchAll(PLACEHOLDER)].some((m) => !values[m[1]!]) ? '' : segment,
    ),
  );
}

/** Throws when the template cannot produce an http(s) proxy URL. */
export function checkProxyTemplate(template: string): void {
  const sample = renderProxyUrl(template, { country: 'us', state: 'ny', city: 'new york' }, 's1');
  const bare = renderProxyUrl(template, { country: null, state: null, city: null }, 's1');
  for (const candidate of [sample, bare]) {
    let url: URL;
    try {
      url = new URL(candidate);
    } catch {
      throw new Error('must be a URL such as http://user-{country}:password@proxy.example.com:8000');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error('only http:// and https:// proxies are supported');
    }
    if (!url.hostname) throw new Error('must name the proxy host');
  }
}

/** The proxy URL as admins see it: the password never leaves the server. */
export function maskProxyUrl(proxyUrl: string): string {
  try {
    const url = new URL(proxyUrl);
    if (url.password) url.password = '***';
    return url.toString().replace(/\/$/, '');
  } catch {
    return '[invalid proxy URL]';
  }
}
