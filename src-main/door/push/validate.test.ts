import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src-shared/a2a';
import { parseConfigRef, parsePushConfig, webhookUrlProblem } from './validate';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as A2AError;
  }
  throw new Error('expected a refusal');
};

describe('push config validation', () => {
  it('accepts https anywhere and plain http to this machine only', () => {
    for (const ok of [
      'https://hooks.example.com/a2a',
      'http://localhost:9/x',
      'http://127.0.0.1:8080/',
      'http://[::1]:1/h',
      'HTTP://LOCALHOST/x',
    ]) {
      expect(webhookUrlProblem(ok), ok).toBeUndefined();
    }
    expect(webhookUrlProblem('http://hooks.example.com/a2a')).toMatch(/plain http/);
    expect(webhookUrlProblem('http://127.0.0.2/')).toMatch(/plain http/);
    expect(webhookUrlProblem('http://localhost.example.com/')).toMatch(/plain http/);
    expect(webhookUrlProblem('ftp://localhost/x')).toMatch(/ftp:/);
    expect(webhookUrlProblem('file:///etc/passwd')).toMatch(/file:/);
    expect(webhookUrlProblem('/relative')).toMatch(/absolute/);
  });

  it('refuses userinfo, even with https', () => {
    expect(webhookUrlProblem('https://user:pass@hooks.example.com/')).toMatch(/userinfo/);
    expect(webhookUrlProblem('https://user@hooks.example.com/')).toMatch(/userinfo/);
  });

  it('answers -32602 naming the field', () => {
    const e = refusal(() => parsePushConfig({ taskId: 't', url: 'https://u:p@x.example/' }));
    expect(e).toBeInstanceOf(A2AError);
    expect(e.code).toBe(-32602);
    expect(e.message).toContain('params.url');
    expect(e.message).not.toContain('u:p');
    const inline = refusal(() =>
      parsePushConfig({ url: 'http://x.example/' }, 'params.configuration.taskPushNotificationConfig'),
    );
    expect(inline.message).toContain('params.configuration.taskPushNotificationConfig.url');
    expect(refusal(() => parsePushConfig({ taskId: 't' })).code).toBe(-32602);
    expect(
      refusal(() => parsePushConfig({ url: 'https://x.example/', authentication: { credentials: 'c' } })).message,
    ).toContain('authentication.scheme');
    expect(refusal(() => parsePushConfig('nope')).code).toBe(-32602);
    const badToken = refusal(() => parsePushConfig({ url: 'https://x.example/', token: 'tok\r\nX-Evil: 1' }));
    expect(badToken.message).toContain('params.token');
    expect(badToken.message).not.toContain('Evil');
    expect(
      refusal(() => parsePushConfig({ url: 'https://x.example/', authentication: { scheme: 'Bearer x' } })).message,
    ).toContain('authentication.scheme');
  });

  it('keeps the fields it knows and reads snake_case task_id', () => {
    expect(
      parsePushConfig({
        task_id: 't',
        id: 'c1',
        url: 'https://x.example/',
        token: 'tk',
        authentication: { scheme: 'Bearer', credentials: 's' },
        extra: 1,
      }),
    ).toEqual({
      taskId: 't',
      id: 'c1',
      url: 'https://x.example/',
      token: 'tk',
      authentication: { scheme: 'Bearer', credentials: 's' },
    });
  });

  it('parses Get/List/Delete references', () => {
    expect(parseConfigRef({ taskId: 't', id: 'c' }, true)).toEqual({ taskId: 't', id: 'c' });
    expect(parseConfigRef({ task_id: 't' }, false)).toEqual({ taskId: 't' });
    expect(refusal(() => parseConfigRef({ taskId: 't' }, true)).code).toBe(-32602);
    expect(refusal(() => parseConfigRef({}, false)).code).toBe(-32602);
  });
});
