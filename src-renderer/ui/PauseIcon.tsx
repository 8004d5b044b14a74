/** Two bars, drawn (the UI font has no pause glyph everywhere). */
export const PauseIcon = () => (
  <svg className="pause-icon" width="8" height="8" viewBox="0 0 8 8" aria-hidden="true">
    <rect x="1" y="0.5" width="2" height="7" rx="0.5" fill="currentColor" />
    <rect x="5" y="0.5" width="2" height="7" rx="0.5" fill="currentColor" />
  </svg>
);
