import { memo, type ReactNode } from 'react';

// A small glyph per inference driver for the node header: simple shapes of our own (not the
// providers' logos), told apart by shape and colour, with the driver's name for screen readers.

const STROKE = {
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.6,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

const GLYPHS: Record<string, { label: string; color: string; shape: ReactNode }> = {
  rehearsal: {
    label: 'Rehearsal (scripted, offline)',
    color: 'var(--rehearsal)',
    // A script page with a play mark.
    shape: (
      <>
        <path {...STROKE} d="M4 2.5h6l2.5 2.5v8.5h-8.5z" />
        <path d="M6.5 7v4l3.2-2z" fill="currentColor" />
      </>
    ),
  },
  anthropic: {
    label: 'Anthropic',
    color: '#d97757',
    shape: <path {...STROKE} d="M8 2v12M2.8 5l10.4 6M2.8 11l10.4-6" />,
  },
  openai: {
    label: 'OpenAI',
    color: 'var(--ok)',
    shape: <path {...STROKE} d="M8 1.8l5.4 3.1v6.2L8 14.2l-5.4-3.1V4.9z" />,
  },
  deepseek: {
    label: 'DeepSeek',
    color: '#4d6bfe',
    shape: <path {...STROKE} d="M2 9.5c2-3 4-3 6 0s4 3 6 0M2 5.5c2-3 4-3 6 0s4 3 6 0" />,
  },
  'openai-compatible': {
    label: 'OpenAI-compatible server',
    color: 'var(--accent)',
    shape: <path {...STROKE} d="M5.5 2v3.5M10.5 2v3.5M3.5 5.5h9v2.5a4.5 4.5 0 0 1-9 0zM8 12.5V15" />,
  },
  process: {
    label: 'Process (a harness CLI)',
    color: 'var(--busy)',
    shape: <path {...STROKE} d="M2.5 4.5l3.5 3.5-3.5 3.5M8 12h5.5" />,
  },
};
const UNKNOWN = {
  label: 'Unknown driver',
  color: 'var(--text-faint)',
  shape: <path {...STROKE} d="M6 6a2 2 0 1 1 2.8 1.8c-.5.3-.8.7-.8 1.2v.5M8 12.2v.1" />,
};

/** The driver's glyph; `driver` is the CapsuleView's driver (a built-in kind, another artifact name, or null). */
export const DriverIcon = memo(function DriverIcon({ driver }: { driver: string | null }) {
  const g = (driver && GLYPHS[driver]) || UNKNOWN;
  const label = driver && !GLYPHS[driver] ? `Driver ${driver}` : `Driver: ${g.label}`;
  return (
    <span
      className="driver-icon"
      role="img"
      aria-label={label}
      title={label}
      style={{ color: g.color }}
      data-driver={driver ?? 'none'}
    >
      <svg viewBox="0 0 16 16" aria-hidden="true">
        {g.shape}
      </svg>
    </span>
  );
});
