// The Content-Security-Policy of the Studio page, in both shells: only our own scripts, no eval,
// no remote content; inline style attributes are needed by the canvas (xyflow positions nodes so).
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');
