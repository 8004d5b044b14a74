// How every command's help names sessions, in one place so the words never drift apart.

/** The rule, one sentence, as the README says it too. */
export const ADDRESS_RULE =
  '@1 is the newest session, @2 the one before, and so on: counted among running sessions by the commands that talk to one (ps, send, cancel, stop, watch, expose), among every recorded session by trace show and run --resume.';

/** The rule, wrapped for a terminal, as the last lines of every command's help that takes a session. */
export const ADDRESS_RULE_HELP = wrap(ADDRESS_RULE, 100);

function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** A running session's address, for commands that talk to a live door. */
export const RUNNING_ADDRESS_HELP =
  '@1 (newest running), @2, …, the last 4+ characters of a session id, the full id, or a trace.jsonl path';

/** A recorded session's address (trace show, run --resume). */
export const RECORDED_ADDRESS_HELP =
  '@1 (newest recorded), @2, …, the last 4+ characters of a session id, the full id, or a trace.jsonl path';
