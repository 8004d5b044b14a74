// Terminal formatting shared by the commands: durations, ages, section rulers, aligned columns.

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`;
}

/** Local date and time to the second, e.g. 2026-10-13 09:00:04. */
export function formatTime(ms: number | null | undefined): string {
  if (!ms) return '-';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

const RULER_WIDTH = 49;

/** `── Title ─────…` as docs/door.md (the terminal) shows section heads. */
export function ruler(title: string): string {
  const head = `── ${title} `;
  return head + '─'.repeat(Math.max(3, RULER_WIDTH - head.length));
}

/** Left-aligned columns separated by two spaces; the last column is not padded. */
export function columns(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

/** `--since 1h` / `30m` / `2d` / an ISO date → epoch ms. */
export function parseSince(value: string, now = Date.now()): number | null {
  const m = /^(\d+)(s|m|h|d|w)$/.exec(value.trim());
  if (m) return now - Number(m[1]) * { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7, w: 6.048e8 }[m[2] as 's'];
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}
