import { createContext, useContext } from 'react';
import type { IssueView } from '../../../../src-shared/contract';
import type { DocEdit, Path } from './formDoc';

/** What every form section needs: the draft as data, its problems, and the one way to write. */
export interface FormApi {
  capsuleId: string;
  /** The capsule's own name as the draft says. */
  selfName: string;
  data: Record<string, unknown>;
  issues: IssueView[];
  /** Applies edits to the draft as one undo step named `key` (typing in one field coalesces). */
  write(key: string, ...edits: DocEdit[]): void;
}

export const FormContext = createContext<FormApi | null>(null);

export function useForm(): FormApi {
  const api = useContext(FormContext);
  if (!api) throw new Error('a form section is used outside ManifestForm');
  return api;
}

/** `a[0].b` and `a.0.b` alike (the core and the draft checker spell list indexes differently). */
const normal = (p: string) => p.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');

/** The problems at a path or inside it. */
export function issuesAt(issues: readonly IssueView[], path: Path, opts: { exact?: boolean } = {}): IssueView[] {
  const p = path.join('.');
  return issues.filter((i) => {
    const q = normal(i.path);
    return q === p || (!opts.exact && q.startsWith(`${p}.`));
  });
}

export const pathKey = (path: Path) => path.join('.');
