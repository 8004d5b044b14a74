import type { A2AError } from '../../src-shared/a2a';
import { bodyTooLarge, BODY_LIMIT, callChecked, checkRequest, errorText, resultAnswer } from '../door';
import type { Session } from '../runtime/api';
import { envelopeTo03 } from './compat03';

// An A2A call that does not stream, answered by a session of this process in process: the door's
// own request checks (content type, JSON, the envelope, params depth, A2A-Version; envelope.ts)
// and its method table (callChecked), with no second HTTP parse, JSON encode or connection. The
// answer is the one the session's door would give, byte for byte. The gateway is the HTTP
// boundary: it read the body within the same 1 MiB limit the door has, and never passes on the
// peer header (so the door's peer refusal cannot apply) or the caller's credentials.

export interface InProcessCall {
  session: Session;
  /** The headers the door would be sent (doorHeaders): content type, A2A-Version, traceparent. */
  headers: Record<string, string>;
  /** The body as the door would read it: the caller's, or the 1.0 request a 0.3 call became. */
  body: string;
  /** The body already parsed (the caller's own body, parsed once), or undefined to parse `body`. */
  parsed?: { value: unknown };
  /** A 0.3 caller's method: the 1.0 answer is translated back for it. */
  method03?: string;
}

export interface InProcessAnswer {
  text: string;
  /** The JSON-RPC error the answer carries, if any (the access log's `error CODE`). */
  error?: A2AError;
}

const inFlight = new WeakMap<Session, number>();

/**
 * One of a session's call slots, or undefined when `max` calls are being answered already. Over
 * HTTP each call held one of its door's connections, and a caller past the door's cap was turned
 * away (503, door_busy): calls in process meet the same bound. Returns the release function.
 */
export function takeSlot(session: Session, max: number): (() => void) | undefined {
  const n = inFlight.get(session) ?? 0;
  if (n >= max) return undefined;
  inFlight.set(session, n + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    inFlight.set(session, (inFlight.get(session) ?? 1) - 1);
  };
}

export async function answerInProcess(call: InProcessCall): Promise<InProcessAnswer> {
  const { session, headers, body, parsed } = call;
  let answer: InProcessAnswer;
  if (!parsed && Buffer.byteLength(body) > BODY_LIMIT) {
    const error = bodyTooLarge();
    answer = { text: errorText(null, error), error };
  } else {
    const checked = checkRequest(headers['content-type'] ?? '', headers['a2a-version'], () =>
      parsed ? parsed.value : JSON.parse(body),
    );
    if (!checked.ok) answer = { text: errorText(checked.id, checked.error), error: checked.error };
    else {
      try {
        const result = await callChecked(session, checked.method, checked.params, headers);
        answer = resultAnswer(session, checked.id, checked.method, result);
      } catch (err) {
        // callChecked rejects with the A2AError the door would answer (failureOf).
        answer = { text: errorText(checked.id, err as A2AError), error: err as A2AError };
      }
    }
  }
  if (call.method03) answer.text = JSON.stringify(envelopeTo03(JSON.parse(answer.text), call.method03));
  return answer;
}
