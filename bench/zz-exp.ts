import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { SCHEMA } from '../src-main/trace/schema';
const path = process.argv[2];
const line = JSON.stringify({ts:new Date().toISOString(), event_type:'inference', session_id:'ses_019ed2af53da75c2aefee84ee10c34af', task_id:'tsk_019ed2af53da75c2aefee84ee10c34af', turn:1, tokens_in:300,tokens_out:80, stop_reason:'end_turn', text:'Looking at part 2 of report 1234', duration_ms:12});
const N = 100000;
for (const variant of ['single', 'multi64', 'single', 'multi64']) {
  for (const f of [path, path+'-wal', path+'-shm']) rmSync(f, {force:true});
  const db = new Database(path);
  db.pragma('journal_mode = WAL'); db.pragma('synchronous = OFF'); db.pragma('cache_size = -65536');
  db.exec(SCHEMA);
  const ev = db.prepare('INSERT INTO events (sid, seq, task_no, type, ts, json) VALUES (?, ?, ?, ?, ?, ?)');
  const K = 64;
  const evm = db.prepare('INSERT INTO events (sid, seq, task_no, type, ts, json) VALUES ' + Array(K).fill('(?, ?, ?, ?, ?, ?)').join(', '));
  const c0 = process.cpuUsage();
  db.transaction(() => {
    let buf: unknown[] = [];
    for (let i = 0; i < N; i++) {
      const e = JSON.parse(line);
      const ts = Date.parse(e.ts);
      if (variant === 'single') ev.run(1, i, (i / 11) | 0, e.event_type, ts, line);
      else { buf.push(1, i, (i / 11) | 0, e.event_type, ts, line); if (buf.length === K * 6) { evm.run(buf); buf = []; } }
    }
    for (let j = 0; j < buf.length; j += 6) ev.run(buf.slice(j, j + 6));
  })();
  const c1 = process.cpuUsage(c0);
  console.log(variant.padEnd(20), ((c1.user + c1.system) / N).toFixed(2), 'cpu-us/event');
  db.close();
}
