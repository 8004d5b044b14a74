import { useMemo } from 'react';
import { useStudio } from '../../../store';
import { portOfUrl, type FormationPeer, type RemotePeer } from './allowOwners';

export interface FormationInfo {
  peers: FormationPeer[];
  remotes: RemotePeer[];
}

/**
 * The formation's capsules and remote agents as the form needs them (names, ports, URLs). Selected
 * as one string, so a task or trace update of some capsule does not re-render the form.
 */
export function useFormation(): FormationInfo {
  const signature = useStudio((s) => {
    const caps = s.capsuleIds.map((id) => {
      const c = s.capsules[id];
      return c ? [id, c.name, c.port ?? '', portOfUrl(c.url) ?? ''].join('\t') : '';
    });
    const rems = s.remoteIds.map((id) => {
      const r = s.remotes[id];
      return r ? [id, r.url, r.card?.name ?? r.url].join('\t') : '';
    });
    return `${caps.join('\n')}\n\n${rems.join('\n')}`;
  });
  return useMemo(() => {
    const [caps = '', rems = ''] = signature.split('\n\n');
    const rows = (t: string) =>
      t
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t'));
    return {
      peers: rows(caps).map(([id, name, pinned, running]) => ({
        id,
        name,
        pinnedPort: pinned ? Number(pinned) : undefined,
        runningPort: running ? Number(running) : undefined,
      })),
      remotes: rows(rems).map(([id, url, name]) => ({ id, url, name })),
    };
  }, [signature]);
}
