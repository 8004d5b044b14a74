import { join, resolve } from 'node:path';
import {
  applyNotes,
  DeployError,
  kubernetesObjects,
  parseSecretRef,
  readDeployFormation,
  versionNote,
  writeKubernetes,
  type DeployFormation,
  type SecretRef,
} from '../deploy';
import { publishedWorkspace } from '../versions';
import { DEFAULT_IMAGE, DEFAULT_NAMESPACE, KUBE_HOST } from '../../src-shared/contract/deploy';
import { createExposureStore, gatewayDataDir } from '../gateway';
import { parseCommandArgs } from './args';
import { UserError } from './errors';
import { layout } from './home';

// `capsule deploy kubernetes`: writes plain Kubernetes manifests for a workspace's formation.
// Nothing is launched and nothing is sent to a cluster; the user applies the folder.

export const usage = `usage: capsule deploy kubernetes --workspace DIR [--namespace N] [--image IMAGE] [--out DIR] [--host NAME] [--secret VAR=secret/key …] [--data DIR]
  --workspace, -w  the workspace folder (holds formation.yaml)
  --namespace      the namespace (default capsule)
  --image          the runtime image (default capsule-runtime:latest; see the Dockerfile)
  --out            the folder written (default ./kubernetes); one file per object and a kustomization.yaml
  --host           the Ingress host of the gateway (https://NAME); without it, no Ingress
  --secret         where a manifest's \${VAR} comes from on the cluster: VAR=<secret name>/<key>
                   (repeat for each); values are never read or written, only referenced
  --data           gateway data folder whose exposures are deployed (default $CAPSULE_HOME/gateway)
Apply with: kubectl apply -k <out>`;

const options = {
  workspace: { type: 'string', short: 'w' },
  namespace: { type: 'string' },
  image: { type: 'string' },
  out: { type: 'string' },
  host: { type: 'string' },
  secret: { type: 'string', multiple: true },
  data: { type: 'string' },
} as const;

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('deploy', argv, options, usage);
  if (positionals[0] !== 'kubernetes' || positionals.length !== 1)
    throw new UserError(`deploy knows one target: kubernetes\n${usage}`, 2);
  if (!values.workspace) throw new UserError(`deploy needs --workspace\n${usage}`, 2);
  const secrets = new Map<string, SecretRef>();
  for (const text of values.secret ?? []) {
    const ref = parseSecretRef(text);
    if (!ref) throw new UserError(`--secret takes VAR=<secret name>/<key>, not "${text}"`, 2);
    secrets.set(ref[0], ref[1]);
  }
  if (values.host !== undefined && !KUBE_HOST.test(values.host))
    throw new UserError(`--host must be a DNS name such as agents.example.com, not "${values.host}"`, 2);
  const store = createExposureStore(resolve(values.data ?? gatewayDataDir(layout().home)));
  const exposed = store.list().map((e) => e.capsule);
  store.dispose();
  const out = resolve(values.out ?? 'kubernetes');
  // Outside callers get the published version, so that is what the cluster gets (the draft when nothing is published).
  const published = await publishedWorkspace(values.workspace, join(layout().home, 'published'));
  let files: string[];
  let formation: DeployFormation;
  try {
    formation = readDeployFormation(published?.folder ?? values.workspace);
    files = writeKubernetes(
      out,
      kubernetesObjects(formation, {
        namespace: values.namespace ?? DEFAULT_NAMESPACE,
        image: values.image ?? DEFAULT_IMAGE,
        secrets,
        exposed,
        ...(values.host ? { host: values.host } : {}),
      }),
    );
  } catch (err) {
    if (err instanceof DeployError) throw new UserError(err.message);
    throw err;
  }
  process.stdout.write(`wrote ${files.length} files to ${out}\n`);
  if (published) process.stdout.write(`${versionNote(published.published)}\n`);
  const exposuresFile = resolve(values.data ?? gatewayDataDir(layout().home), 'exposures.json');
  for (const note of applyNotes({
    files,
    namespace: values.namespace ?? DEFAULT_NAMESPACE,
    exposuresFile,
    out,
    formation,
    ...(values.host ? { host: values.host } : {}),
  }))
    process.stdout.write(`${note}\n`);
  return 0;
}
