// The network allow list of a manifest (capabilities.network.allow): which places a capsule may
// connect to on a model's behalf. Pure and DNS-free, so it runs before any packet is sent.
//
// Pattern forms:
//   host:port                      that host, exactly that port (any scheme, any path)
//   host                           that host, any port
//   *.example.com[:port]           any subdomain of example.com (not example.com itself)
//   http(s)://host[:port][/path]   same scheme, host and port (80/443 when absent); the target's
//                                  path must equal the pattern's path or continue it after a "/"
//
// Hosts compare case-insensitively, after the WHATWG URL host parsing every connection goes
// through (so 127.1 and 0x7f.0.0.1 are 127.0.0.1, and IDN hosts compare in punycode). Numeric
// addresses match literally: 127.0.0.1 and ::1 are two places (two processes may each hold the
// same port on one of them). Only the name `localhost` means both: a `localhost` entry allows
// 127.0.0.1 and ::1, and a target named localhost is never resolved through DNS — the runtime
// connects to whichever of the two loopback addresses the allow list permits and the peer is on.
// Under a path-prefix URL entry, an encoded slash or a dot segment (encoded or not) in the
// target's path is refused: a server that decodes it could serve a path outside the prefix.

/** A place a connection goes to: host (lowercase, IPv6 without brackets), port, and for URLs scheme and path. */
export interface AllowTarget {
  host: string;
  port?: number;
  scheme?: string;
  path?: string;
}

export type AllowPattern =
  | { kind: 'host'; host: string; port?: number }
  | { kind: 'wildcard'; suffix: string; port?: number }
  | { kind: 'url'; scheme: string; host: string; port: number; path: string };

const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443, ws: 80, wss: 443 };
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);
/** The addresses the name localhost stands for (never looked up). */
export const LOCALHOST_ADDRESSES = ['127.0.0.1', '::1'] as const;

/** The canonical host of a name as a connection would use it, or undefined when it is not a host. */
function canonicalHost(raw: string): string | undefined {
  if (!raw || /[\s/@?#\\]/.test(raw)) return undefined;
  const bracketed = raw.includes(':') && !raw.startsWith('[') ? `[${raw}]` : raw;
  try {
    const host = new URL(`http://${bracketed}/`).hostname.toLowerCase();
    if (!host) return undefined;
    return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  } catch {
    return undefined;
  }
}

function parsePort(raw: string | undefined): number | undefined | null {
  if (raw === undefined) return undefined;
  if (!/^\d{1,5}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= 65535 ? n : null;
}

/** Splits "host", "host:port", "[v6]", "[v6]:port" or a bare IPv6 address ("::1") into host and port. */
function splitAuthority(text: string): { host: string; port?: number } | undefined {
  let hostPart = text;
  let portPart: string | undefined;
  const bracket = /^(\[[^\]]*\])(?::(.*))?$/.exec(text);
  if (bracket) {
    hostPart = bracket[1];
    portPart = bracket[2];
  } else if ((text.match(/:/g) ?? []).length === 1) {
    [hostPart, portPart] = text.split(':');
  }
  const port = parsePort(portPart);
  if (port === null) return undefined;
  const host = canonicalHost(hostPart);
  return host ? { host, port } : undefined;
}

function trimPath(path: string): string {
  return path.replace(/\/+$/, '');
}

function parseUrl(text: string): AllowTarget | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  // Userinfo in a target changes nothing about where it connects: the host below decides.
  if (!(scheme in DEFAULT_PORTS)) return undefined;
  const host = canonicalHost(url.hostname);
  if (!host) return undefined;
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[scheme];
  return { host, port, scheme, path: url.pathname || '/' };
}

/** Parses one allow entry; undefined when it is none of the documented forms. */
export function parseAllowPattern(entry: string): AllowPattern | undefined {
  const text = entry.trim();
  if (!text) return undefined;
  if (text.includes('://')) {
    // Userinfo in a pattern is always a mistake or a trick: refuse the pattern outright.
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(text) || /[?#]/.test(text)) return undefined;
    const u = parseUrl(text);
    if (!u || u.port === undefined || u.scheme === undefined) return undefined;
    return { kind: 'url', scheme: u.scheme, host: u.host, port: u.port, path: trimPath(u.path ?? '') };
  }
  if (text.startsWith('*.')) {
    const a = splitAuthority(text.slice(2));
    if (!a || a.host.includes(':') || /^[\d.]+$/.test(a.host)) return undefined;
    return { kind: 'wildcard', suffix: `.${a.host}`, port: a.port };
  }
  if (text.includes('*')) return undefined;
  const a = splitAuthority(text);
  return a ? { kind: 'host', host: a.host, port: a.port } : undefined;
}

/** Parses what a connection is about to reach: a URL (string or object) or "host[:port]". */
export function parseAllowTarget(target: string | URL): AllowTarget | undefined {
  if (typeof target !== 'string') return parseUrl(target.href);
  const text = target.trim();
  if (text.includes('://')) return parseUrl(text);
  return splitAuthority(text);
}

/** Whether a pattern's host covers a target's host: literally, or `localhost` for a loopback address. */
function sameHost(pattern: string, target: string): boolean {
  return pattern === target || (pattern === 'localhost' && (target === '127.0.0.1' || target === '::1'));
}

/** A segment a server might read as a slash or a step up: %2F, %5C, or `.`/`..` however spelt. */
function trickySegment(segment: string): boolean {
  if (/%(2f|5c)/i.test(segment)) return true;
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return true;
  }
  return decoded === '.' || decoded === '..';
}

function pathAllowed(patternPath: string, targetPath: string): boolean {
  if (!patternPath) return true;
  if (targetPath !== patternPath && !targetPath.startsWith(`${patternPath}/`)) return false;
  return !targetPath.split('/').some(trickySegment);
}

/** Whether one parsed pattern allows one parsed target. */
export function patternAllows(p: AllowPattern, t: AllowTarget): boolean {
  switch (p.kind) {
    case 'host':
      return sameHost(p.host, t.host) && (p.port === undefined || p.port === t.port);
    case 'wildcard':
      return (
        t.host.endsWith(p.suffix) && t.host.length > p.suffix.length && (p.port === undefined || p.port === t.port)
      );
    case 'url':
      // A bare "host:port" target names no scheme or path, so a URL pattern cannot vouch for it.
      if (t.scheme === undefined || t.path === undefined) return false;
      return p.scheme === t.scheme && sameHost(p.host, t.host) && p.port === t.port && pathAllowed(p.path, t.path);
  }
}

/** The first pattern that allows the target, or undefined (refused). Invalid patterns allow nothing. */
export function matchAllow(target: string | URL, patterns: readonly string[]): string | undefined {
  const t = parseAllowTarget(target);
  if (!t) return undefined;
  for (const entry of patterns) {
    const p = parseAllowPattern(entry);
    if (p && patternAllows(p, t)) return entry;
  }
  return undefined;
}

/** A canonical text for an allow entry, so equivalent spellings compare equal (127.1 is 127.0.0.1; localhost stays itself). */
export function allowEntryKey(entry: string): string {
  const p = parseAllowPattern(entry);
  if (!p) return `raw:${entry.trim()}`;
  const host = (h: string) => h;
  switch (p.kind) {
    case 'host':
      return `host:${host(p.host)}:${p.port ?? '*'}`;
    case 'wildcard':
      return `wild:${p.suffix}:${p.port ?? '*'}`;
    case 'url':
      return `url:${p.scheme}://${host(p.host)}:${p.port}${p.path}`;
  }
}

/** Whether two allow entries say the same thing in different spellings. */
export function sameAllowEntry(a: string, b: string): boolean {
  return allowEntryKey(a) === allowEntryKey(b);
}

/** The loopback port an entry pins, if it names exactly one port on this machine (host:port or URL). */
export function loopbackPort(entry: string): number | undefined {
  const p = parseAllowPattern(entry);
  if (!p || p.kind === 'wildcard' || !LOOPBACK.has(p.host)) return undefined;
  return p.port;
}
