import { describeResidue, type ResidueItem } from '../../src-shared/residue';

// How the terminal names what a canceled task or a stopped session leaves behind (docs/door.md):
// `running: <command>` for a detached shell command, `ended: <capsule> (<child session>)` for a
// delegation the cancel ended.

export function residueLine(item: ResidueItem): string {
  const { status, text } = describeResidue(item);
  return `${status}: ${text}`;
}
