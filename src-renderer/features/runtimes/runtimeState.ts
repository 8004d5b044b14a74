import type { RuntimeView } from '../../../src-shared/contract';

/** A runtime's link in words: connected, connecting, lost (retrying in N s), refused 401. */
export function runtimeStateText(r: RuntimeView): string {
  switch (r.state) {
    case 'connected':
      return 'connected';
    case 'connecting':
      return 'connecting…';
    case 'lost':
      return r.retryInS !== undefined ? `lost, retrying in ${r.retryInS} s` : 'lost';
    case 'refused':
      return r.message?.match(/^refused \d+/)?.[0] ?? 'refused';
  }
}
