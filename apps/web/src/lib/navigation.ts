type Navigator = (to: string, options?: { replace?: boolean }) => void;
type PageLoader = { assign(url: string): void; replace(url: string): void; reload(): void };

let spaNavigator: Navigator | null = null;
// jsdom can neither leave nor reload a page, so tests put a recorder here; null is the browser's own.
let pageLoader: PageLoader | null = null;

/** Lets the router take over in-app navigation; returns the function that undoes it. */
export function registerNavigator(navigator: Navigator): () => void {
  spaNavigator = navigator;
  return () => {
    if (spaNavigator === navigator) spaNavigator = null;
  };
}

/** Sets how the page is left for another address or reloaded; null gives it back to window.location. */
export function setPageLoader(loader: PageLoader | null): void {
  pageLoader = loader;
}

/** Browsers drop tabs and line breaks and read a backslash as '/', so '/\t/evil.test' would leave the site. */
// eslint-disable-next-line no-control-regex -- control characters are what is refused
const UNSAFE_PATH_CHARACTERS = /[\u0000-\u001F\u007F\\]/;

function isInAppPath(to: string): boolean {
  return to.startsWith('/') && !to.startsWith('//') && !UNSAFE_PATH_CHARACTERS.test(to);
}

/** Goes to an in-app path through the router when one is mounted, anywhere else with a page load. */
export function navigateTo(to: string, options: { replace?: boolean } = {}): void {
  if (isInAppPath(to) && spaNavigator) {
    spaNavigator(to, options);
    return;
  }
  const loader = pageLoader ?? window.location;
  if (options.replace) loader.replace(to);
  else loader.assign(to);
}

export function reloadPage(): void {
  (pageLoader ?? window.location).reload();
}

/** Path, query and hash of the current page. */
export function currentAddress(): string {
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}

/** Accepts only same-site paths as redirect targets; anything else becomes '/'. */
export function safeRedirectPath(target: string | null | undefined): string {
  if (!target || !isInAppPath(target)) return '/';
  return target;
}
