import { artifactTo03, messageTo03, messageTo10, statusTo03, taskTo03 } from '../../src-shared/a2a';
import { METHODS_03_TO_10 } from '../peer';

// A2A 0.3 compatibility (opt-in per exposure): 0.3 method names and `kind` shapes (mapped in
// src-shared/a2a/compat03) translated to the 1.0 door and back: `final` on status updates,
// `blocking` (default false) instead of `returnImmediately`, bare results without wrappers.

type Obj = Record<string, any>;

/** 0.3 method -> 1.0 method the door answers. */
export const METHODS_03 = METHODS_03_TO_10;
export const EXTENDED_CARD_03 = 'agent/getAuthenticatedExtendedCard';
export const is03Method = (m: string) => Object.hasOwn(METHODS_03, m) || m === EXTENDED_CARD_03;

const TERMINAL_03 = new Set(['completed', 'failed', 'canceled', 'rejected']);
const INTERRUPTED_03 = new Set(['input-required', 'auth-required']);

/** Translates 0.3 params to the door's 1.0 params. */
export function paramsTo10(method03: string, p: Obj = {}): Obj {
  if (method03 === 'message/send' || method03 === 'message/stream') {
    const c = (p.configuration ?? {}) as Obj;
    const push = c.pushNotificationConfig as Obj | undefined;
    return {
      message: messageTo10(p.message),
      configuration: {
        ...(c.acceptedOutputModes ? { acceptedOutputModes: c.acceptedOutputModes } : {}),
        ...(c.historyLength !== undefined ? { historyLength: c.historyLength } : {}),
        returnImmediately: c.blocking !== true,
        ...(push
          ? {
              taskPushNotificationConfig: {
                url: push.url,
                ...(push.id ? { id: push.id } : {}),
                ...(push.token ? { token: push.token } : {}),
                ...(push.authentication
                  ? {
                      authentication: {
                        scheme: push.authentication.schemes?.[0] ?? 'Bearer',
                        credentials: push.authentication.credentials,
                      },
                    }
                  : {}),
              },
            }
          : {}),
      },
      ...(p.metadata ? { metadata: p.metadata } : {}),
    };
  }
  return {
    id: p.id,
    ...(p.historyLength !== undefined ? { historyLength: p.historyLength } : {}),
    ...(p.metadata ? { metadata: p.metadata } : {}),
  };
}

/**
 * Translates one 1.0 result (plain answer or stream event) to the 0.3 shape. `final` marks the
 * event after which the door closes the stream: a terminal state, or an interrupted one except on
 * tasks/resubscribe, whose stream stays open until the task ends.
 */
export function resultTo03(result: Obj, method03 = ''): Obj {
  if (!result || typeof result !== 'object') return result;
  if (result.task) return taskTo03(result.task);
  if (result.message) return messageTo03(result.message)!;
  if (result.statusUpdate) {
    const u = result.statusUpdate as Obj;
    const status = statusTo03(u.status);
    const final =
      TERMINAL_03.has(status.state) || (method03 !== 'tasks/resubscribe' && INTERRUPTED_03.has(status.state));
    return { ...u, kind: 'status-update', status, final };
  }
  if (result.artifactUpdate) {
    const u = result.artifactUpdate as Obj;
    return { ...u, kind: 'artifact-update', artifact: artifactTo03(u.artifact ?? {}) };
  }
  if (result.id && result.status) return taskTo03(result); // GetTask / CancelTask answer a bare Task
  return result;
}

/** Rewrites one JSON-RPC envelope from the door (result or error) for a 0.3 caller. */
export function envelopeTo03(envelope: Obj, method03 = ''): Obj {
  return 'result' in envelope ? { ...envelope, result: resultTo03(envelope.result, method03) } : envelope;
}
