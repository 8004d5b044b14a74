// What the desktop window may do, decided without electron so it can be tested: only the Studio's
// own pages load in the window; http(s) links open in the system browser; everything else
// (file:, javascript:, data:, other schemes) goes nowhere.

export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://studio`;

export type NavigationDecision = 'allow' | 'external' | 'deny';

export const isExternalLink = (url: string): boolean => /^https?:\/\//i.test(url);

/** Whether a URL is the Studio's own page (the app:// origin, or the dev server in development). */
export function isStudioPage(url: string, devServerUrl?: string): boolean {
  if (url.startsWith(`${APP_ORIGIN}/`)) return true;
  if (!devServerUrl) return false;
  try {
    return new URL(url).origin === new URL(devServerUrl).origin;
  } catch {
    return false;
  }
}

/** For will-navigate: stay on our pages, send web links to the browser, refuse the rest. */
export function decideNavigation(url: string, devServerUrl?: string): NavigationDecision {
  if (isStudioPage(url, devServerUrl)) return 'allow';
  return isExternalLink(url) ? 'external' : 'deny';
}

/** For window.open / target=_blank: never a new window; web links go to the browser. */
export function decideWindowOpen(url: string): Exclude<NavigationDecision, 'allow'> {
  return isExternalLink(url) ? 'external' : 'deny';
}
