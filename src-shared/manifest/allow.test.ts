import { describe, expect, it } from 'vitest';
import { allowEntryKey, loopbackPort, matchAllow, parseAllowPattern, sameAllowEntry } from './allow';

describe('matchAllow: host:port', () => {
  it('allows exactly that port, on host targets and URL targets', () => {
    expect(matchAllow('localhost:52222', ['localhost:52222'])).toBe('localhost:52222');
    expect(matchAllow('http://localhost:52222/a2a/v1', ['localhost:52222'])).toBe('localhost:52222');
    expect(matchAllow(new URL('http://localhost:52222/'), ['localhost:52222'])).toBe('localhost:52222');
    expect(matchAllow('localhost:52223', ['localhost:52222'])).toBeUndefined();
    expect(matchAllow('localhost:522220', ['localhost:52222'])).toBeUndefined();
    expect(matchAllow('http://localhost:522220/', ['localhost:52222'])).toBeUndefined();
    expect(matchAllow('localhost:5222', ['localhost:52222'])).toBeUndefined();
  });
  it('fills the default port of the scheme when a URL has none', () => {
    expect(matchAllow('https://api.example.com/v1', ['api.example.com:443'])).toBe('api.example.com:443');
    expect(matchAllow('http://api.example.com/v1', ['api.example.com:80'])).toBe('api.example.com:80');
    expect(matchAllow('http://api.example.com/v1', ['api.example.com:443'])).toBeUndefined();
  });
  it('does not allow a host target with no port', () => {
    expect(matchAllow('localhost', ['localhost:52222'])).toBeUndefined();
  });
});

describe('matchAllow: host', () => {
  it('allows any port of that host and nothing that merely contains it', () => {
    expect(matchAllow('example.com:8443', ['example.com'])).toBe('example.com');
    expect(matchAllow('https://example.com/x', ['example.com'])).toBe('example.com');
    expect(matchAllow('https://EXAMPLE.com/x', ['Example.COM'])).toBe('Example.COM');
    expect(matchAllow('https://example.com.evil.net/', ['example.com'])).toBeUndefined();
    expect(matchAllow('https://evilexample.com/', ['example.com'])).toBeUndefined();
    expect(matchAllow('https://sub.example.com/', ['example.com'])).toBeUndefined();
  });
});

describe('matchAllow: *.domain', () => {
  it('allows subdomains only', () => {
    expect(matchAllow('https://a.example.com/', ['*.example.com'])).toBe('*.example.com');
    expect(matchAllow('https://a.b.example.com/', ['*.example.com'])).toBe('*.example.com');
    expect(matchAllow('https://example.com/', ['*.example.com'])).toBeUndefined();
    expect(matchAllow('https://evilexample.com/', ['*.example.com'])).toBeUndefined();
    expect(matchAllow('https://a.example.com.evil.net/', ['*.example.com'])).toBeUndefined();
  });
  it('honours a port on the wildcard', () => {
    expect(matchAllow('https://a.example.com/', ['*.example.com:443'])).toBe('*.example.com:443');
    expect(matchAllow('http://a.example.com/', ['*.example.com:443'])).toBeUndefined();
  });
});

describe('matchAllow: URL prefixes', () => {
  it('needs the same scheme, host and port', () => {
    expect(matchAllow('http://localhost:52222/a2a', ['http://localhost:52222'])).toBe('http://localhost:52222');
    expect(matchAllow('https://localhost:52222/a2a', ['http://localhost:52222'])).toBeUndefined();
    expect(matchAllow('http://localhost:52223/a2a', ['http://localhost:52222'])).toBeUndefined();
    expect(matchAllow('https://api.example.com/v1', ['https://api.example.com'])).toBe('https://api.example.com');
    expect(matchAllow('https://api.example.com:8443/v1', ['https://api.example.com'])).toBeUndefined();
  });
  it('treats the path as a prefix on segment boundaries', () => {
    const p = ['http://localhost:52222/a2a'];
    expect(matchAllow('http://localhost:52222/a2a', p)).toBe(p[0]);
    expect(matchAllow('http://localhost:52222/a2a/', p)).toBe(p[0]);
    expect(matchAllow('http://localhost:52222/a2a/tasks/1', p)).toBe(p[0]);
    expect(matchAllow('http://localhost:52222/a2a-evil', p)).toBeUndefined();
    expect(matchAllow('http://localhost:52222/', p)).toBeUndefined();
    expect(matchAllow('http://localhost:52222/a2a/../admin', p)).toBeUndefined();
    expect(matchAllow('http://localhost:52222/a2a/%2e%2e/admin', p)).toBeUndefined();
    expect(matchAllow('http://localhost:52222/a2a/x', ['http://localhost:52222/a2a/'])).toBe(
      'http://localhost:52222/a2a/',
    );
  });
  it('never matches a bare host:port target, which names no scheme or path', () => {
    expect(matchAllow('localhost:52222', ['http://localhost:52222'])).toBeUndefined();
  });
});

describe('matchAllow: loopback and tricks', () => {
  it('matches numeric loopback addresses literally; only the name localhost means both', () => {
    for (const target of [
      'http://localhost:52222/',
      'http://127.0.0.1:52222/',
      'http://[::1]:52222/',
      '[::1]:52222',
      '127.0.0.1:52222',
    ]) {
      expect(matchAllow(target, ['localhost:52222'])).toBe('localhost:52222');
    }
    // 127.0.0.1 and ::1 are two places: another process may hold the same port on the other one.
    expect(matchAllow('http://127.0.0.1:52222/', ['127.0.0.1:52222'])).toBe('127.0.0.1:52222');
    expect(matchAllow('http://[::1]:52222/', ['127.0.0.1:52222'])).toBeUndefined();
    expect(matchAllow('[::1]:52222', ['http://127.0.0.1:52222'])).toBeUndefined();
    expect(matchAllow('http://[::1]:52222/', ['[::1]:52222'])).toBe('[::1]:52222');
    expect(matchAllow('http://127.0.0.1:52222/', ['[::1]:52222'])).toBeUndefined();
    expect(matchAllow('http://127.0.0.1:52222/a2a', ['http://[::1]:52222/a2a'])).toBeUndefined();
    // A target named localhost is never resolved here: the peer client picks the allowed address.
    expect(matchAllow('http://localhost:52222/', ['127.0.0.1:52222'])).toBeUndefined();
    expect(matchAllow('http://[::1]:9/', ['::1'])).toBe('::1');
    expect(matchAllow('http://127.0.0.2:52222/', ['localhost:52222'])).toBeUndefined();
    expect(matchAllow('http://0.0.0.0:52222/', ['localhost:52222'])).toBeUndefined();
    expect(matchAllow('http://localhost.evil.net:52222/', ['localhost:52222'])).toBeUndefined();
    expect(matchAllow('http://me.localhost:52222/', ['localhost:52222'])).toBeUndefined();
    expect(matchAllow('http://example.com/', ['localhost'])).toBeUndefined();
  });
  it('refuses encoded slashes and dot segments under a path-prefix entry', () => {
    const p = ['http://h.example:8080/a2a'];
    for (const path of [
      '/a2a/..%2Fevil',
      '/a2a/%2E%2E%2Fevil',
      '/a2a/%2e%2e%2fevil',
      '/a2a/x%2Fy',
      '/a2a/x%5C..%5Cy',
      '/a2a/.%2E/evil',
      '/a2a/%zz',
    ]) {
      expect(matchAllow(`http://h.example:8080${path}`, p)).toBeUndefined();
    }
    expect(matchAllow('http://h.example:8080/a2a/tasks/1', p)).toBe(p[0]);
    expect(matchAllow('http://h.example:8080/a2a/a%20b', p)).toBe(p[0]);
    // A dot segment the URL parser resolves is judged where it lands (and fetch sends it so).
    expect(matchAllow('http://h.example:8080/a2a/%2E/x', p)).toBe(p[0]);
    // Without a path prefix there is nothing to escape from: the path is the peer's business.
    expect(matchAllow('http://h.example:8080/x%2Fy', ['http://h.example:8080'])).toBe('http://h.example:8080');
  });
  it('judges a URL by its real host, not by userinfo that looks like one', () => {
    expect(matchAllow('http://localhost:52222@evil.net/', ['localhost:52222'])).toBeUndefined();
    expect(matchAllow('http://localhost:52222@evil.net/', ['http://localhost:52222'])).toBeUndefined();
    expect(matchAllow('http://user:pw@localhost:52222/', ['localhost:52222'])).toBe('localhost:52222');
    expect(parseAllowPattern('http://evil.net@localhost:52222')).toBeUndefined();
  });
  it('uses the host a connection would use (numeric IPv4 forms normalise)', () => {
    expect(matchAllow('http://127.1:52222/', ['localhost:52222'])).toBe('localhost:52222');
    expect(matchAllow('http://0x7f.0.0.1:52222/', ['127.0.0.1:52222'])).toBe('127.0.0.1:52222');
  });
  it('refuses unknown schemes and garbage, and skips invalid patterns', () => {
    expect(matchAllow('file:///etc/passwd', ['localhost'])).toBeUndefined();
    expect(matchAllow('not a url', ['localhost'])).toBeUndefined();
    expect(matchAllow('http://localhost:1/', ['localhost:99999', 'local*', '', 'localhost:1'])).toBe('localhost:1');
  });
  it('returns the first pattern that allows', () => {
    expect(matchAllow('http://localhost:1/', ['example.com', 'localhost', 'localhost:1'])).toBe('localhost');
  });
});

describe('allow entry helpers', () => {
  it('recognises equivalent spellings', () => {
    expect(sameAllowEntry('LOCALHOST:52222', 'localhost:52222')).toBe(true);
    expect(sameAllowEntry('127.1:52222', '127.0.0.1:52222')).toBe(true);
    expect(sameAllowEntry('[::1]:52222', '::1:52222')).toBe(false); // a bare "::1:52222" is an IPv6 address, not a port
    // localhost means both loopback addresses, so it says more than either one.
    expect(sameAllowEntry('localhost:52222', '127.0.0.1:52222')).toBe(false);
    expect(sameAllowEntry('http://127.0.0.1:52222/', 'http://[::1]:52222')).toBe(false);
    expect(sameAllowEntry('http://localhost/', 'http://localhost:80')).toBe(true);
    expect(sameAllowEntry('localhost:52222', 'http://localhost:52222')).toBe(false);
    expect(sameAllowEntry('localhost:52222', 'localhost:52223')).toBe(false);
    expect(allowEntryKey('example.com')).toBe('host:example.com:*');
  });
  it('finds the loopback port an entry pins', () => {
    expect(loopbackPort('localhost:52222')).toBe(52222);
    expect(loopbackPort('http://127.0.0.1:52222/a2a')).toBe(52222);
    expect(loopbackPort('http://localhost/')).toBe(80);
    expect(loopbackPort('localhost')).toBeUndefined();
    expect(loopbackPort('example.com:52222')).toBeUndefined();
  });
});
