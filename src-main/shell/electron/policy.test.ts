import { describe, expect, it } from 'vitest';
import { decideNavigation, decideWindowOpen, isStudioPage } from './policy';

describe('desktop window policy', () => {
  it('keeps the window on the Studio and sends web links to the browser', () => {
    expect(decideNavigation('app://studio/index.html')).toBe('allow');
    expect(decideNavigation('https://example.com/docs')).toBe('external');
    expect(decideNavigation('file:///etc/passwd')).toBe('deny');
    expect(decideNavigation('javascript:alert(1)')).toBe('deny');
    expect(decideNavigation('app://studio.evil/x')).toBe('deny');
    expect(decideNavigation('http://localhost:5173/', 'http://localhost:5173')).toBe('allow');
    expect(decideNavigation('http://localhost:5173.evil.com/', 'http://localhost:5173')).toBe('external');
    expect(isStudioPage('http://localhost:5173/')).toBe(false);
  });

  it('never opens a second window', () => {
    expect(decideWindowOpen('https://a2a-protocol.org/')).toBe('external');
    expect(decideWindowOpen('app://studio/index.html')).toBe('deny');
    expect(decideWindowOpen('data:text/html,hi')).toBe('deny');
  });
});
