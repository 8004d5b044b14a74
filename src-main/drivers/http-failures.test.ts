import { afterEach, describe, expect, it, vi } from 'vitest';
import { CASES, KEY, setup, turnRequest } from './fakes/cases';
import type { FakeProvider } from './fakes';
import { AbortedError, InferenceError } from './types';

// Retries, failures, aborts and key hygiene, the same for every HTTP driver.

const OK = { turn: { text: 'fine', tokensIn: 3, tokensOut: 2 } } as const;

describe.each(CASES)('$label driver failures', (c) => {
  let fake: FakeProvider;
  afterEach(() => fake?.dispose());

  it('waits as long as a 429 retry-after says, reports the retry, then succeeds', async () => {
    const s = await setup(c);
    fake = s.fake;
    fake.reply(
      { error: { status: 429, type: 'rate_limit_error', message: 'slow down', headers: { 'retry-after': '0.2' } } },
      OK,
    );
    const retries: { attempt: number; delayMs: number; reason: string }[] = [];
    const t0 = Date.now();
    const result = await s.driver.turn({ ...turnRequest(), onRetry: (r) => retries.push(r) });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(result.text).toBe('fine');
    expect(retries).toEqual([
      { attempt: 1, delayMs: 200, reason: expect.stringMatching(new RegExp(`^${c.kind}: HTTP 429`)) },
    ]);
    expect(fake.requests).toHaveLength(2);
    // Only our retries: the SDK must not have retried on its own.
    expect(fake.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '0']);
  });

  it('retries a 500 and a connection reset, then succeeds', async () => {
    const s = await setup(c);
    fake = s.fake;
    fake.reply({ error: { status: 500, type: 'api_error', message: 'boom' } }, { reset: true }, OK);
    const reasons: string[] = [];
    const result = await s.driver.turn({ ...turnRequest(), onRetry: (r) => reasons.push(r.reason) });
    expect(result.text).toBe('fine');
    expect(reasons).toHaveLength(2);
    expect(reasons[0]).toMatch(/HTTP 500 — api_error: boom/);
    expect(reasons[1]).toMatch(/connection/);
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up after bounded retries with an InferenceError naming provider and status', async () => {
    const s = await setup(c, { retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 50 } });
    fake = s.fake;
    const overloaded = { error: { status: 503, type: 'overloaded_error', message: 'busy' } } as const;
    fake.reply(overloaded, overloaded, overloaded, OK);
    const retries: number[] = [];
    const err = await s.driver
      .turn({ ...turnRequest(), onRetry: (r) => retries.push(r.delayMs) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InferenceError);
    expect((err as InferenceError).status).toBe(503);
    expect((err as Error).message).toMatch(
      new RegExp(`^${c.kind}: HTTP 503 — overloaded_error: busy after 3 attempts$`),
    );
    expect(retries).toEqual([5, 10]);
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a 400 and does not replay a stream that broke after output', async () => {
    const s = await setup(c);
    fake = s.fake;
    fake.reply({ error: { status: 400, type: 'invalid_request_error', message: 'bad tools' } });
    const bad = await s.driver.turn(turnRequest()).catch((e: unknown) => e);
    expect((bad as Error).message).toBe(`${c.kind}: HTTP 400 — invalid_request_error: bad tools`);
    fake.reply({ breakAfter: { text: 'half an ans' } }, OK);
    const frames: string[] = [];
    const broken = await s.driver
      .turn({ ...turnRequest(), onFrame: (f) => f.kind === 'text' && frames.push(f.text) })
      .catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(InferenceError);
    expect((broken as Error).message).toMatch(/stream broke after output had started|incomplete reply/);
    expect(frames.join('')).toBe('half an ans');
    expect(fake.requests).toHaveLength(2);
  });

  it('aborts mid-stream at once: AbortedError, and the provider sees its connection closed', async () => {
    const s = await setup(c);
    fake = s.fake;
    fake.reply({ hang: { text: 'thinking…' } });
    const ctl = new AbortController();
    const pending = s.driver.turn({ ...turnRequest(ctl.signal), onFrame: () => ctl.abort() });
    const t0 = Date.now();
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    await (
      await fake.request(0)
    ).closed;
    expect(Date.now() - t0).toBeLessThan(500);
  });

  it('aborts a retry wait at once', async () => {
    const s = await setup(c, { retry: { retries: 3, baseDelayMs: 10_000, maxDelayMs: 10_000 } });
    fake = s.fake;
    fake.reply({ error: { status: 502, type: 'api_error', message: 'bad gateway' } });
    const ctl = new AbortController();
    const t0 = Date.now();
    await expect(s.driver.turn({ ...turnRequest(ctl.signal), onRetry: () => ctl.abort() })).rejects.toBeInstanceOf(
      AbortedError,
    );
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it.runIf(c.keyed)('never lets the key into errors or retry reasons, even when the provider echoes it', async () => {
    const s = await setup(c, { retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } });
    fake = s.fake;
    const echo = { error: { status: 500, type: 'api_error', message: `key ${KEY} rejected` } } as const;
    fake.reply(echo, echo);
    const reasons: string[] = [];
    const logged: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...a: unknown[]) => void logged.push(a.map(String).join(' '))),
    );
    const stderr = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: any) => (logged.push(String(chunk)), true));
    const err = (await s.driver
      .turn({ ...turnRequest(), onRetry: (r) => reasons.push(r.reason) })
      .catch((e: unknown) => e)) as Error;
    spies.forEach((spy) => spy.mockRestore());
    stderr.mockRestore();
    expect(logged.join('\n')).not.toContain(KEY);
    expect(err).toBeInstanceOf(InferenceError);
    expect(reasons[0]).toContain('***');
    const everything = [
      err.message,
      String(err.stack),
      JSON.stringify(err),
      JSON.stringify(Object.entries(err)),
      ...reasons,
    ].join('\n');
    expect(everything).not.toContain(KEY);
    // The key did go out, in the auth header only.
    const auth = String(fake.requests[0].headers.authorization ?? fake.requests[0].headers['x-api-key']);
    expect(auth).toContain(KEY);
    expect(JSON.stringify(fake.requests[0].body)).not.toContain(KEY);
  });

  it('retries a 4xx the provider marks x-should-retry: true, and not a 5xx marked false', async () => {
    const s = await setup(c);
    fake = s.fake;
    fake.reply(
      { error: { status: 409, type: 'conflict', message: 'try again', headers: { 'x-should-retry': 'true' } } },
      OK,
      { error: { status: 500, type: 'api_error', message: 'final', headers: { 'x-should-retry': 'false' } } },
    );
    expect((await s.driver.turn(turnRequest())).text).toBe('fine');
    await expect(s.driver.turn(turnRequest())).rejects.toThrow(`${c.kind}: HTTP 500 — api_error: final`);
    expect(fake.requests).toHaveLength(3);
  });

  it.runIf(c.keyed)('turns a refused key into a 401 InferenceError without retrying', async () => {
    const s = await setup(c);
    fake = s.fake;
    const wrong = (await import('./http')).createHttpDriver(c.kind, {
      model: c.model,
      endpoint: s.fake.url.replace(c.stripV1 ? /\/v1$/ : /$^/, ''),
      apiKey: 'sk-wrong-key-1234',
    });
    const err = (await wrong.turn(turnRequest()).catch((e: unknown) => e)) as InferenceError;
    expect(err.status).toBe(401);
    expect(err.message).not.toContain('sk-wrong-key-1234');
    expect(fake.requests).toHaveLength(1);
  });
});
