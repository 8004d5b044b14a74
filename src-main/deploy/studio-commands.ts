import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CoreError,
  DEFAULT_IMAGE,
  DEFAULT_NAMESPACE,
  type CommandArgs,
  type DeployEdgeView,
  type DeployPreview,
  type PublishedView,
} from '../../src-shared/contract';
import { describeFsError } from '../manifest';
import type { Handlers, StudioContext } from '../workspace';
import { DeployError, readDeployFormation, type DeployFormation } from './formation';
import { kubernetesFiles, kubernetesObjects, makeFolder, writeKubernetesFiles } from './index';
import { applyNotes, versionNote } from './notes';
import { egressPolicyOf } from './policies';
import { publishedWorkspace } from '../versions';
import type { SecretRef } from './objects';

// "Export for Kubernetes…": the objects `capsule deploy kubernetes` writes (the same functions),
// for the open workspace and the capsules the Studio's gateway exposes. The preview shows every
// file's text; it holds the manifests as written, so a ${VAR} stays a reference and no value of
// the secret store or the environment is read.

type Options = CommandArgs<'deploy.preview'>;

function kubeOptions(o: Options, exposed: string[]) {
  const secrets = new Map<string, SecretRef>(Object.entries(o.secrets ?? {}));
  return {
    namespace: o.namespace ?? DEFAULT_NAMESPACE,
    image: o.image ?? DEFAULT_IMAGE,
    secrets,
    exposed,
    ...(o.host ? { host: o.host } : {}),
  };
}

/** Each edge and the two policies that let it through (names as networkPolicies gives them). */
function edgesOf(f: DeployFormation): DeployEdgeView[] {
  const byId = new Map(f.capsules.map((c) => [c.id, c]));
  return f.edges.map((e) => {
    const source = byId.get(e.source)!;
    const target = e.kind === 'capsule' ? byId.get(e.target) : undefined;
    return {
      source: e.source,
      target: e.target,
      allowEntry: e.allowEntry,
      kind: e.kind,
      egressPolicy: e.kind === 'capsule' ? `${source.name}-egress` : egressPolicyOf(source, e.allowEntry),
      ...(target ? { ingressPolicy: `${target.name}-ingress` } : {}),
    };
  });
}

/** A folder the core can write into: created when missing; a clear error when it cannot be. */
function writableFolder(dir: string): string {
  const abs = resolve(dir);
  try {
    if (existsSync(abs) && !statSync(abs).isDirectory())
      throw new CoreError('invalid_input', `${abs} is a file, not a folder.`);
    makeFolder(abs);
    accessSync(abs, constants.W_OK);
  } catch (err) {
    if (err instanceof CoreError) throw err;
    throw new CoreError('io_error', `Cannot write to ${abs}: ${describeFsError(err)}.`);
  }
  return abs;
}

export function deployHandlers(
  ctx: StudioContext,
  exposed: () => string[],
): Pick<Handlers, 'deploy.preview' | 'deploy.write'> {
  const exposuresFile = join(ctx.config.userDataDir, 'gateway', 'exposures.json');
  const build = async (o: Options) => {
    let formation: DeployFormation;
    // An exposed capsule is served from the published version, so that is what a cluster gets.
    const published = await publishedWorkspace(ctx.workspace().dir, join(ctx.config.userDataDir, 'published'));
    try {
      formation = readDeployFormation(published?.folder ?? ctx.workspace().dir);
    } catch (err) {
      if (err instanceof DeployError) throw new CoreError('invalid_input', err.message);
      throw err;
    }
    const vars = [...new Set(formation.capsules.flatMap((c) => c.vars))].sort();
    try {
      const files = kubernetesFiles(kubernetesObjects(formation, kubeOptions(o, exposed())));
      return { formation, vars, files, published: published?.published };
    } catch (err) {
      if (err instanceof DeployError)
        return { formation, vars, files: [], problem: err.message, published: published?.published };
      throw err;
    }
  };
  const notesFor = (
    o: Options,
    names: string[],
    out: string,
    published: PublishedView | undefined,
    formation: DeployFormation,
  ) => [
    ...(published ? [versionNote(published)] : []),
    ...applyNotes({
      files: names,
      namespace: o.namespace ?? DEFAULT_NAMESPACE,
      exposuresFile,
      out,
      formation,
      ...(o.host ? { host: o.host } : {}),
    }),
  ];
  return {
    async 'deploy.preview'(o): Promise<DeployPreview> {
      const { formation, vars, files, problem, published } = await build(o);
      const names = files.map((f) => f.name);
      const out = o.dir ? resolve(o.dir) : '<folder>';
      return {
        vars,
        exposed: exposed(),
        files: files.map((f) => ({
          name: f.name,
          kind: f.object?.kind ?? 'Kustomization',
          objectName: f.object?.metadata.name ?? '',
          text: f.text,
        })),
        edges: edgesOf(formation),
        ...(problem ? { problem } : {}),
        existing: o.dir ? names.filter((n) => existsSync(join(out, n))) : [],
        notes: files.length ? notesFor(o, names, out, published, formation) : [],
      };
    },
    async 'deploy.write'(o, call) {
      const { formation, files, problem, published } = await build(o);
      if (problem) throw new CoreError('invalid_input', problem);
      // Esc while the formation was read: stop before the first file, so a canceled export writes nothing.
      if (call?.signal?.aborted) throw new CoreError('canceled', 'The export was canceled; no file was written.');
      const dir = writableFolder(o.dir);
      const replaced = files.map((f) => f.name).filter((n) => existsSync(join(dir, n)));
      if (replaced.length && !o.overwrite) {
        throw new CoreError(
          'conflict',
          `${dir} already holds ${replaced.length === 1 ? replaced[0] : `${replaced.length} files of this export (${replaced.slice(0, 5).join(', ')}${replaced.length > 5 ? ', …' : ''})`}; write over them?`,
          { existing: replaced },
        );
      }
      const kinds: Record<string, number> = {};
      try {
        writeKubernetesFiles(dir, files);
      } catch (err) {
        throw new CoreError('io_error', `Cannot write to ${dir}: ${(err as Error).message}`);
      }
      for (const f of files) if (f.object) kinds[f.object.kind] = (kinds[f.object.kind] ?? 0) + 1;
      const names = files.map((f) => f.name);
      return { dir, files: names, kinds, replaced, notes: notesFor(o, names, dir, published, formation) };
    },
  };
}
