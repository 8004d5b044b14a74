import type { KubeObject } from './objects';

// A small NetworkPolicy evaluator for tests, following the Kubernetes semantics: a connection
// is allowed when the source's egress allows it (no policy selecting the source for Egress, or
// one rule of one that does matches the destination and port) and the destination's ingress
// allows it (the same on the Ingress side). Pods are selected by labels within the policy's
// namespace; a peer's namespaceSelector reaches other namespaces; ipBlock matches addresses.

export interface Endpoint {
  name: string;
  ip: string;
  /** Set for pods; external addresses have neither. */
  namespace?: string;
  labels?: Record<string, string>;
  namespaceLabels?: Record<string, string>;
}

type Selector = { matchLabels?: Record<string, string>; matchExpressions?: unknown[] } | undefined;
type Peer = { podSelector?: Selector; namespaceSelector?: Selector; ipBlock?: { cidr: string; except?: string[] } };
type PortRule = { protocol?: string; port?: number | string; endPort?: number };
type Rule = { to?: Peer[]; from?: Peer[]; ports?: PortRule[] };
interface PolicySpec {
  podSelector: Selector;
  policyTypes?: string[];
  ingress?: Rule[];
  egress?: Rule[];
}

function selects(sel: Selector, labels: Record<string, string> = {}): boolean {
  if (sel?.matchExpressions?.length) throw new Error('the evaluator does not read matchExpressions');
  return Object.entries(sel?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
}

const ipNumber = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  if (base.includes(':') || ip.includes(':')) return false;
  const size = 2 ** (32 - Number(bits));
  return Math.floor(ipNumber(ip) / size) === Math.floor(ipNumber(base) / size);
}

function peerMatches(peer: Peer, policyNs: string, e: Endpoint): boolean {
  if (peer.ipBlock) return inCidr(e.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((x) => inCidr(e.ip, x));
  if (e.namespace === undefined) return false;
  const nsOk = peer.namespaceSelector ? selects(peer.namespaceSelector, e.namespaceLabels) : e.namespace === policyNs;
  return nsOk && (peer.podSelector ? selects(peer.podSelector, e.labels) : true);
}

function portMatches(ports: PortRule[] | undefined, port: number, protocol: string): boolean {
  if (!ports?.length) return true;
  return ports.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    if (typeof p.port === 'string') throw new Error('the evaluator does not resolve named ports');
    return p.endPort ? port >= p.port && port <= p.endPort : port === p.port;
  });
}

function sideAllows(
  policies: KubeObject[],
  side: 'Ingress' | 'Egress',
  self: Endpoint,
  other: Endpoint,
  port: number,
  protocol: string,
): boolean {
  if (self.namespace === undefined) return true; // outside the cluster: no policy applies
  const selecting = policies.filter((p) => {
    const spec = p.spec as PolicySpec;
    const types = spec.policyTypes ?? (spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);
    return p.metadata.namespace === self.namespace && types.includes(side) && selects(spec.podSelector, self.labels);
  });
  if (!selecting.length) return true;
  return selecting.some((p) => {
    const spec = p.spec as PolicySpec;
    const rules = (side === 'Egress' ? spec.egress : spec.ingress) ?? [];
    return rules.some((r) => {
      const peers = side === 'Egress' ? r.to : r.from;
      const peerOk = !peers?.length || peers.some((x) => peerMatches(x, p.metadata.namespace!, other));
      return peerOk && portMatches(r.ports, port, protocol);
    });
  });
}

/** Whether `from` may open a connection to `to` on port/protocol under these policies. */
export function allowed(policies: KubeObject[], from: Endpoint, to: Endpoint, port: number, protocol = 'TCP'): boolean {
  const netpols = policies.filter((p) => p.kind === 'NetworkPolicy');
  return (
    sideAllows(netpols, 'Egress', from, to, port, protocol) && sideAllows(netpols, 'Ingress', to, from, port, protocol)
  );
}
