import type { RouteOptions } from 'fastify';

/** A registered API path as a pattern of whole paths: `:param` is one segment, `*` the rest. */
function pathPattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) =>
      segment.startsWith(':')
        ? '[^/]+'
        : segment === '*'
          ? '.*'
          : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * The methods the API's routes take at a path, so a request with another one is told so (405 with
 * `Allow`) rather than that the path does not exist. Read from the route table the first time it is asked,
 * when every route is registered.
 */
export function apiMethodsByPath(routes: readonly RouteOptions[]): (pathname: string) => string[] {
  let table: { pattern: RegExp; methods: string[] }[] | null = null;
  return (pathname) => {
    table ??= routes
      .filter((r) => r.url.startsWith('/api/'))
      .map((r) => ({ pattern: pathPattern(r.url), methods: [r.method].flat().map(String) }));
    const methods = new Set<string>();
    for (const route of table) {
      if (route.pattern.test(pathname)) for (const m of route.methods) methods.add(m);
    }
    return [...methods].sort();
  };
}
