import { isIP } from 'node:net';
import {
  allowList,
  loopbackPort,
  matchAllow,
  parseAllowPattern,
  sameAllowEntry,
  type McpServerSpec,
} from '../../src-shared/manifest';
import type { DeployCapsule, DeployFormation } from './formation';
import { CAPSULE_LABEL, GATEWAY_NAME, meta, PART_OF, type KubeObject } from './objects';

// The graph's permissions as NetworkPolicies: the edge is the permission on the cluster too.
// Every pod of the formation is denied everything by default; then a capsule may reach the
// capsules and external addresses its allow list names (and the cluster DNS, and the endpoint
// of its HTTP inference driver), a capsule takes
// connections only from the capsules with an edge to it (and the gateway when it is exposed).
// A NetworkPolicy speaks addresses, not names: an allow entry naming a host by DNS name opens
// its port to the internet outside the cluster's private ranges, and the runtime's own allow
// list (checked before every connection) keeps to the exact host. A remote MCP server the
// capsule may use (its URL admitted by the allow list) is an edge of its own: its own egress
// policy, `<capsule>-mcp-<server>`, so deleting the server takes exactly that opening away.

export const GATEWAY_PORT = 8080;

const PRIVATE_V4 = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16', '127.0.0.0/8'];
const DNS = {
  to: [
    {
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
      podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
    },
  ],
  ports: [
    { protocol: 'UDP', port: 53 },
    { protocol: 'TCP', port: 53 },
  ],
};

const selectorOf = (name: string) => ({ matchLabels: { [CAPSULE_LABEL]: name } });
const tcp = (port: number) => ({ protocol: 'TCP', port });

type Rule = { to?: unknown[]; ports?: unknown[] };

/** The egress rule for one external allow entry; undefined for entries no pod-level rule can express (loopback). */
export function externalRule(entry: string): Rule | undefined {
  if (loopbackPort(entry) !== undefined) return undefined;
  const p = parseAllowPattern(entry);
  if (!p) return undefined;
  const host = p.kind === 'wildcard' ? undefined : p.host;
  if (host === 'localhost' || host === '127.0.0.1' || host === '::1') return undefined;
  const port = p.port;
  const v = host ? isIP(host) : 0;
  const to =
    v === 4
      ? [{ ipBlock: { cidr: `${host}/32` } }]
      : v === 6
        ? [{ ipBlock: { cidr: `${host}/128` } }]
        : [{ ipBlock: { cidr: '0.0.0.0/0', except: PRIVATE_V4 } }];
  return { to, ...(port !== undefined ? { ports: [tcp(port)] } : {}) };
}

/** The capsule's remote MCP servers that its allow list admits (the runtime refuses the others). */
export function remoteMcpServers(c: DeployCapsule): McpServerSpec[] {
  const allow = allowList(c.manifest);
  return (c.manifest.capabilities?.mcp?.servers ?? []).filter(
    (s) => s.url !== undefined && matchAllow(s.url, allow) !== undefined,
  );
}

export const mcpPolicyName = (c: DeployCapsule, server: string): string => `${c.name}-mcp-${server.toLowerCase()}`;

/** The egress policy that opens an allow entry of the capsule: its MCP server's own, or the capsule's. */
export function egressPolicyOf(c: DeployCapsule, entry: string): string {
  const server = remoteMcpServers(c).find((s) => sameAllowEntry(s.url!, entry));
  return server ? mcpPolicyName(c, server.name) : `${c.name}-egress`;
}

const policy = (name: string, namespace: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: meta(name, namespace, { ...PART_OF }),
  spec,
});

export function networkPolicies(f: DeployFormation, namespace: string, exposed: Set<string>): KubeObject[] {
  const byId = new Map(f.capsules.map((c) => [c.id, c]));
  const out: KubeObject[] = [
    policy('capsule-default-deny', namespace, {
      podSelector: { matchLabels: { ...PART_OF } },
      policyTypes: ['Ingress', 'Egress'],
    }),
  ];
  for (const c of f.capsules) {
    const edges = f.edges.filter((e) => e.source === c.id);
    const rules: Rule[] = [DNS];
    for (const id of new Set(edges.filter((e) => e.kind === 'capsule').map((e) => e.target))) {
      const t = byId.get(id)!;
      rules.push({ to: [{ podSelector: selectorOf(t.name) }], ports: [tcp(t.port)] });
    }
    const mcp = remoteMcpServers(c);
    // An entry that is exactly a remote MCP server's URL is opened by that server's policy alone.
    const external = edges
      .filter((x) => x.kind !== 'capsule' && !mcp.some((s) => sameAllowEntry(s.url!, x.allowEntry)))
      .map((e) => e.allowEntry);
    for (const entry of [...external, ...(c.inferenceEndpoint ? [c.inferenceEndpoint] : [])]) {
      const rule = externalRule(entry);
      if (rule) rules.push(rule);
    }
    out.push(
      policy(`${c.name}-egress`, namespace, {
        podSelector: selectorOf(c.name),
        policyTypes: ['Egress'],
        egress: rules,
      }),
    );
    for (const s of mcp) {
      const rule = externalRule(s.url!);
      if (rule)
        out.push(
          policy(mcpPolicyName(c, s.name), namespace, {
            podSelector: selectorOf(c.name),
            policyTypes: ['Egress'],
            egress: [rule],
          }),
        );
    }
    const callers: DeployCapsule[] = [
      ...new Set(f.edges.filter((e) => e.kind === 'capsule' && e.target === c.id).map((e) => e.source)),
    ].map((id) => byId.get(id)!);
    const from = callers.map((s) => ({ podSelector: selectorOf(s.name) }));
    if (exposed.has(c.id)) from.push({ podSelector: selectorOf(GATEWAY_NAME) });
    if (from.length)
      out.push(
        policy(`${c.name}-ingress`, namespace, {
          podSelector: selectorOf(c.name),
          policyTypes: ['Ingress'],
          ingress: [{ from, ports: [tcp(c.port)] }],
        }),
      );
  }
  if (exposed.size) {
    const targets = f.capsules.filter((c) => exposed.has(c.id));
    // Outside callers arrive through whatever Ingress controller the cluster runs: any source, only the gateway's port.
    out.push(
      policy(`${GATEWAY_NAME}-ingress`, namespace, {
        podSelector: selectorOf(GATEWAY_NAME),
        policyTypes: ['Ingress'],
        ingress: [{ ports: [tcp(GATEWAY_PORT)] }],
      }),
    );
    out.push(
      policy(`${GATEWAY_NAME}-egress`, namespace, {
        podSelector: selectorOf(GATEWAY_NAME),
        policyTypes: ['Egress'],
        egress: [DNS, ...targets.map((t) => ({ to: [{ podSelector: selectorOf(t.name) }], ports: [tcp(t.port)] }))],
      }),
    );
  }
  return out;
}
