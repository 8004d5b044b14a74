// Every time the Studio shows is written one way: the local clock, 24-hour ("04:55:08"), with the
// day before it where the day matters ("2026-12-07 04:55:08"), and milliseconds where lines are
// apart by less than a second (trace rows). Never the browser's locale format (12-hour in some).

type Moment = string | number | Date;

const two = (n: number) => String(n).padStart(2, '0');

function dateOf(at: Moment): Date | null {
  const d = at instanceof Date ? at : new Date(at);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** "04:55:08", or "04:55:08.123" with `ms`; a value that is no time is shown as it came. */
export function formatTime(at: Moment, opts: { ms?: boolean } = {}): string {
  const d = dateOf(at);
  if (!d) return String(at);
  const time = `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
  return opts.ms ? `${time}.${String(d.getMilliseconds()).padStart(3, '0')}` : time;
}

/** "2026-12-07 04:55:08": a moment whose day matters (a session's start, a token's creation). */
export function formatDateTime(at: Moment): string {
  const d = dateOf(at);
  if (!d) return String(at);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${formatTime(d)}`;
}
