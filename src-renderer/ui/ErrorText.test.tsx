import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ErrorText } from './ErrorText';

// The error paragraph the panels share: nothing without an error, an alert with one, and its
// actions beside it (server-rendered, no DOM needed).

describe('ErrorText', () => {
  it('draws nothing while there is no error', () => {
    expect(renderToStaticMarkup(<ErrorText error={null} />)).toBe('');
    expect(renderToStaticMarkup(<ErrorText error="" />)).toBe('');
  });

  it('announces the error as an alert, its text escaped', () => {
    expect(renderToStaticMarkup(<ErrorText error="Port <4200> is taken" />)).toBe(
      '<p class="error-text" role="alert">Port &lt;4200&gt; is taken</p>',
    );
  });

  it('puts the actions beside the message, outside the alert', () => {
    const html = renderToStaticMarkup(
      <ErrorText error="The tunnel closed">
        <button type="button">Retry</button>
      </ErrorText>,
    );
    expect(html).toBe(
      '<div class="error-with-actions"><p class="error-text" role="alert">The tunnel closed</p><div class="error-actions"><button type="button">Retry</button></div></div>',
    );
  });
});
