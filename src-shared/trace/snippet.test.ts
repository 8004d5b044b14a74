import { describe, expect, it } from 'vitest';
import { searchTerms, snippetOf } from './snippet';

const marked = (parts: { text: string; match: boolean }[]) =>
  parts.map((p) => (p.match ? `[${p.text}]` : p.text)).join('');

describe('snippetOf', () => {
  it('marks every searched word in any case, accents ignored', () => {
    expect(marked(snippetOf('A note about Sea stars and sea-stars', 'sea STARS'))).toBe(
      'A note about [Sea] [stars] and [sea]-[stars]',
    );
    expect(marked(snippetOf('Le café est fermé', 'cafe'))).toBe('Le [café] est fermé');
  });

  it('cuts a long line around the first match, saying where it was cut', () => {
    const text = `${'x'.repeat(300)} the pelican landed ${'y'.repeat(300)}`;
    const out = marked(snippetOf(text, 'pelican'));
    expect(out.startsWith('…')).toBe(true);
    expect(out.endsWith('…')).toBe(true);
    expect(out).toContain('the [pelican] landed');
    expect(out.length).toBeLessThan(210);
  });

  it('shows the start of the line when nothing matches, and takes only words from the query', () => {
    expect(marked(snippetOf('plain text', 'zzz'))).toBe('plain text');
    expect(searchTerms('"; DROP TABLE --')).toEqual(['drop', 'table']);
  });
});
