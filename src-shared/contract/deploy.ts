import { command, runsHere } from './command';
import { z } from 'zod';

// "Export for Kubernetes…": the same manifests as `capsule deploy kubernetes`, previewed, then
// written to a folder the user chose. Spread into `commands` in commands.ts; the handlers live in
// src-main/workspace/deploy-commands.ts. Nothing here ever carries a secret's value: a manifest's
// ${VAR} stays a reference and is mapped to a Secret by name and key.

export const DEFAULT_NAMESPACE = 'capsule';
export const DEFAULT_IMAGE = 'capsule-runtime:latest';
/** A DNS name with at least one dot (the Ingress host), as Kubernetes takes it. */
export const KUBE_HOST = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/;
/** A DNS-1123 label (the namespace). */
export const KUBE_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** A Secret's name (DNS-1123 subdomain) and one of its keys. */
const SECRET_OBJECT = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const SECRET_KEY = /^[-._a-zA-Z0-9]{1,253}$/;
const VAR = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** The most ${VAR} mappings one export takes (a formation references far fewer). */
const MAX_SECRET_REFS = 200;
/** An absolute folder path (POSIX or a Windows drive), without NUL; the core checks it can write there. */
const folder = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    (p) => !p.includes('\0') && (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p)),
    'an absolute folder path (starting with / or a drive letter)',
  );

const options = {
  namespace: z.string().regex(KUBE_LABEL, 'a DNS label: lowercase letters, digits and dashes (at most 63)').optional(),
  image: z
    .string()
    .min(1)
    .max(512)
    .regex(/^[\w][\w.\-/:@]*$/, 'an image reference such as registry.example.com/capsule-runtime:1.0')
    .optional(),
  host: z.string().max(253).regex(KUBE_HOST, 'a DNS name such as agents.example.com').optional(),
  /** ${VAR} -> the Secret (name and key) its value is read from on the cluster. */
  secrets: z
    .record(
      z.string().regex(VAR, 'a ${VAR} name'),
      z.strictObject({
        secret: z.string().regex(SECRET_OBJECT, 'a Secret name: lowercase letters, digits, . and -'),
        key: z.string().regex(SECRET_KEY, 'a key: letters, digits, ., _ and -'),
      }),
    )
    .refine((r) => Object.keys(r).length <= MAX_SECRET_REFS, `at most ${MAX_SECRET_REFS} mappings`)
    .optional(),
};

/** One file of the export: its object's kind and name (none for kustomization.yaml) and its text. */
export interface DeployFileView {
  name: string;
  kind: string;
  objectName: string;
  text: string;
}

/** How one edge of the graph is allowed on the cluster: the policy letting the source out and the one letting it in. */
export interface DeployEdgeView {
  source: string;
  target: string;
  /** The allow entry as written in the source's manifest. */
  allowEntry: string;
  kind: 'capsule' | 'remote' | 'external';
  egressPolicy: string;
  /** Only capsule edges have one (other targets are not in the cluster). */
  ingressPolicy?: string;
}

export interface DeployPreview {
  /** The ${VAR} names the manifests reference; each needs a Secret. */
  vars: string[];
  /** Capsules exposed through the gateway (deployed with it). */
  exposed: string[];
  /** Empty when `problem` says why nothing could be generated. */
  files: DeployFileView[];
  edges: DeployEdgeView[];
  problem?: string;
  /** The files of this export that already exist in the chosen folder (written over only when asked). */
  existing: string[];
  /** What is left to do on the cluster (Secrets to create, the apply command). */
  notes: string[];
}

export interface DeployWritten {
  dir: string;
  files: string[];
  /** Kind -> how many objects of it were written. */
  kinds: Record<string, number>;
  /** Files that were there and are replaced. */
  replaced: string[];
  notes: string[];
}

export const deployCommands = {
  'deploy.preview': command<DeployPreview>()(
    'The Kubernetes manifests `capsule deploy kubernetes` would write for the open formation, with the options given; `dir`, when given, says which of its files already exist there.',
    z.strictObject({ ...options, dir: folder.optional() }),
    runsHere,
  ),
  'deploy.write': command<DeployWritten>()(
    'Writes the Kubernetes manifests to `dir` (created when missing). Refuses with `conflict` (naming them) when files of the export exist there, unless `overwrite`.',
    z.strictObject({ ...options, dir: folder, overwrite: z.boolean().optional() }),
    runsHere,
  ),
} as const;
