/**
 * Where the user is, kept in the address fragment (#/profiles/<id>/traits/<code>) so that
 * reloading, back and forward work. The sign-in fragment (#signin=…) is never a route.
 */
import { create } from 'zustand';
import { linksTo, useBrowser } from './browser.js';

/** Remembers where the screen being left was scrolled and which link it was left by, so coming back restores both. */
function leave(route: Route): void {
  const main = document.getElementById('main-content');
  if (!main) return;
  const active = document.activeElement;
  const href = active instanceof HTMLAnchorElement && main.contains(active) ? active.getAttribute('href') : null;
  const nth = href ? [...linksTo(main, href)].indexOf(active as HTMLElement) : 0;
  useBrowser.getState().rememberPlace(routeHash(route), main.scrollTop, href ? { href, nth } : undefined);
}

export type Route =
  | { name: 'home' }
  | { name: 'profile'; id: string }
  | { name: 'trait'; id: string; code: string }
  | { name: 'report'; id: string }
  | { name: 'settings' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'settings') return { name: 'settings' };
  if (parts[0] === 'profiles' && parts[1]) {
    if (parts[2] === 'traits' && parts[3]) return { name: 'trait', id: parts[1], code: parts[3] };
    if (parts[2] === 'report') return { name: 'report', id: parts[1] };
    return { name: 'profile', id: parts[1] };
  }
  return { name: 'home' };
}

export function routeHash(route: Route): string {
  const e = encodeURIComponent;
  switch (route.name) {
    case 'home':
      return '#/';
    case 'settings':
      return '#/settings';
    case 'profile':
      return `#/profiles/${e(route.id)}`;
    case 'trait':
      return `#/profiles/${e(route.id)}/traits/${e(route.code)}`;
    case 'report':
      return `#/profiles/${e(route.id)}/report`;
  }
}

interface RouterState {
  route: Route;
  navigate: (route: Route, options?: { replace?: boolean }) => void;
}

export const useRouter = create<RouterState>((set) => ({
  route: parseRoute(window.location.hash),
  navigate(route, options) {
    leave(useRouter.getState().route);
    const hash = routeHash(route);
    if (options?.replace) history.replaceState(null, '', hash);
    else if (window.location.hash !== hash) history.pushState(null, '', hash);
    set({ route });
  },
}));

function followAddress(): void {
  const next = parseRoute(window.location.hash);
  const current = useRouter.getState().route;
  if (routeHash(next) === routeHash(current)) return;
  leave(current);
  useRouter.setState({ route: next });
}
window.addEventListener('popstate', followAddress);
window.addEventListener('hashchange', followAddress);

export const navigate = (route: Route, options?: { replace?: boolean }) =>
  useRouter.getState().navigate(route, options);
