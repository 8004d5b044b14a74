import { basename, dirname } from 'node:path';
import {
  describeSkipped,
  resolveRecordedSession,
  type IngestReport,
  type SessionQuery,
  type TraceStore,
} from '../trace';
import { intOption, parseCommandArgs } from './args';
import { UserError } from './errors';
import { columns, formatDuration, formatTime, parseSince } from './format';
import { openStore } from './home';
import { printEvents, printSummary } from './trace-show';
import { RECORDED_ADDRESS_HELP, ADDRESS_RULE_HELP } from './session-help';

// `capsule trace show [session]` and `capsule trace ls`: read from the trace index, which is
// brought up to date with the records (by byte offset) before every command.

export const usage = `usage: capsule trace show [session] [--events] [--task T] [--type E] [--records DIR]
       capsule trace ls [--capsule NAME] [--status running|ended|interrupted] [--since 1h|ISO] [--until ISO] [--search WORDS] [--limit N] [--records DIR]
  [session]  ${RECORDED_ADDRESS_HELP} (default @1)
  --events   print the raw trace events (JSON lines) instead of the summary
  --task     only events of this task (task number, full id, or first/last 4+ characters)
  --type     only events of these types (comma-separated or repeated)
${ADDRESS_RULE_HELP}`;

const showOptions = {
  events: { type: 'boolean' },
  task: { type: 'string' },
  type: { type: 'string', multiple: true },
  records: { type: 'string' },
} as const;

const lsOptions = {
  capsule: { type: 'string' },
  status: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  search: { type: 'string' },
  limit: { type: 'string' },
  records: { type: 'string' },
} as const;

/** What the index left out of each file: a torn last line, and lines the readers' rules skip (trace/line.ts). */
function warnSkipped(reports: IngestReport[]) {
  for (const r of reports) {
    if (r.torn)
      process.stderr.write(`capsule: note: ${r.path} ends with an incomplete line (${r.torn.bytes} bytes); skipped\n`);
    const skipped = describeSkipped(r.skipped);
    if (skipped) process.stderr.write(`capsule: note: ${r.path}: skipped ${skipped}\n`);
  }
}

/** Brings the index up to date; a big backlog (a first index of long sessions) says how far it is on stderr. */
function sync(store: TraceStore, records: string) {
  let showing: string | null = null;
  const report = store.syncRecords(records, (path, done, total) => {
    const finished = done >= total;
    if (finished && showing !== path) return; // indexed in one batch: nothing worth saying
    showing = finished ? null : path;
    process.stderr.write(
      `capsule: indexing ${basename(dirname(path))}: ${Math.floor((100 * done) / Math.max(1, total))}%${finished ? '\n' : '\r'}`,
    );
  });
  warnSkipped(report.reports);
}

function show(argv: string[]): number {
  const { values, positionals } = parseCommandArgs('trace show', argv, showOptions, usage);
  if (positionals.length > 1) throw new UserError(`trace show takes one session address\n${usage}`, 2);
  const { store, records } = openStore(values.records);
  try {
    sync(store, records);
    const session = resolveRecordedSession(positionals[0], store);
    const types = values.type
      ?.flatMap((t) => t.split(','))
      .map((t) => t.trim())
      .filter(Boolean);
    if (values.events || values.task || types?.length) printEvents(store, session, { task: values.task, types });
    else printSummary(store, session);
    return 0;
  } finally {
    store.dispose();
  }
}

function ls(argv: string[]): number {
  const { values } = parseCommandArgs('trace ls', argv, lsOptions, usage);
  const q: SessionQuery = { limit: intOption('limit', values.limit) ?? 50 };
  if (values.capsule) q.capsule = values.capsule;
  if (values.status) {
    if (!['running', 'ended', 'interrupted'].includes(values.status))
      throw new UserError(`--status must be running, ended or interrupted, not "${values.status}"`);
    q.status = values.status as SessionQuery['status'];
  }
  for (const key of ['since', 'until'] as const) {
    const v = values[key];
    if (v === undefined) continue;
    const t = parseSince(v);
    if (t === null)
      throw new UserError(
        `--${key} takes a duration back from now (30m, 1h, 2d) or a date (2026-10-13T09:00), not "${v}"`,
      );
    q[key] = t;
  }
  if (values.search) q.search = values.search;
  const { store, records } = openStore(values.records);
  try {
    sync(store, records);
    const sessions = store.listSessions(q);
    if (!sessions.length) {
      process.stdout.write('no sessions match\n');
      return 0;
    }
    const rows = [['SESSION', 'CAPSULE', 'STARTED', 'DURATION', 'STATUS', 'TASKS', 'TOKENS IN/OUT']];
    for (const s of sessions) {
      const end = s.endedAt ?? (s.status === 'running' ? Date.now() : s.lastTs);
      rows.push([
        s.id,
        `${s.capsule ?? '?'}${s.version ? ` v${s.version}` : ''}`,
        formatTime(s.startedAt),
        s.startedAt && end ? formatDuration(end - s.startedAt) : '-',
        s.status,
        String(s.tasks),
        `${s.tokensIn}/${s.tokensOut}`,
      ]);
    }
    process.stdout.write(`${columns(rows).join('\n')}\n`);
    return 0;
  } finally {
    store.dispose();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'show') return show(rest);
  if (sub === 'ls' || sub === 'list') return ls(rest);
  // `capsule trace @2` reads as `trace show @2`.
  return show(argv);
}
