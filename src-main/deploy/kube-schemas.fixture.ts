import { ConfigMap, Namespace, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';

// Tests only: the Kubernetes API schemas (kubernetes-models ships the official OpenAPI
// definitions) for every kind an export writes, so a test can check each object as the API
// server would. Shared by the deploy unit tests, the Studio's export tests and the e2e spec.

export const KUBE_MODELS: Record<string, new (o: never) => { validate(): void }> = {
  Namespace,
  ConfigMap,
  Service,
  Deployment,
  NetworkPolicy,
  Ingress,
};

/** Throws when `obj` is not a valid object of its kind (or of a kind exports never write). */
export function validateKubeObject(obj: { kind?: unknown }): void {
  const Model = KUBE_MODELS[String(obj.kind)];
  if (!Model) throw new Error(`no schema for ${String(obj.kind)}`);
  new Model(obj as never).validate();
}
