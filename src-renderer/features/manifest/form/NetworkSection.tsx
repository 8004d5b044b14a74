import { parseAllowPattern } from '../../../../src-shared/manifest';
import { allowOwners } from './allowOwners';
import { useForm } from './FormContext';
import { CheckField, Section, TextField } from './fields';
import { listAt } from './formDoc';
import { StringList } from './StringList';
import { useFormation } from './useFormation';

const ALLOW = ['capabilities', 'network', 'allow'];

/** Where the capsule may connect (edges own some entries), what its shell may run, its port and peer export. */
export function NetworkSection() {
  const { data, capsuleId } = useForm();
  const { peers, remotes } = useFormation();
  const entries = listAt(data, ALLOW).map((e) => (typeof e === 'string' ? e : String(e)));
  const owners = allowOwners(entries, capsuleId, peers, remotes);
  return (
    <Section title="Network and permissions">
      <TextField
        label="Internal port"
        path={['network', 'internal_port']}
        kind="int"
        hint="Pinned so allow entries stay valid across restarts"
        placeholder="any free port"
      />
      <CheckField label="Accept tasks from other capsules" path={['exports', 'peer_tasks', 'accept']} />
      <StringList
        title="Network allow list"
        item="allow entry"
        path={ALLOW}
        placeholder="host, host:port, *.domain or https://host/path"
        hint="Entries that reach a capsule or remote agent are its edges: draw or delete the edge on the canvas."
        locked={(i) => {
          const o = owners[i];
          return o ? `edge to ${o.name}${o.kind === 'remote' ? ' (remote agent)' : ''}` : null;
        }}
        check={(entry) =>
          parseAllowPattern(entry) ? '' : 'Not an allow pattern: host, host:port, *.domain or an http(s) URL prefix.'
        }
      />
      <StringList
        title="Shell allow list"
        item="shell binary"
        path={['capabilities', 'shell', 'allow']}
        placeholder="git, ls, python3"
        hint="The programs the shell tool may run."
        check={(b) => (/\s/.test(b) ? 'One program name, without arguments.' : '')}
      />
    </Section>
  );
}
