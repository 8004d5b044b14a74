import { createHash } from 'node:crypto';
import { isMap, isSeq, parseDocument, type Document } from 'yaml';
import { DRIVER_ARTIFACTS, formatYamlError, yamlErrorMessage } from '../../src-shared/manifest';
import type { IssueView, McpUseView } from '../../src-shared/contract';
import { parseManifest } from '../manifest';

// What a canvas node needs to know about a manifest, read from the text as written: the summary
// comes from the raw YAML (so ${VAR} stays a reference and no secret value reaches the UI), the
// issues from the real loader, located by line where the loader did not say.

export interface ManifestSummary {
  name: string | null;
  role: 'orchestrator' | 'worker' | 'agent' | null;
  driver: string | null;
  model: string | null;
  rehearsal: boolean;
  port: number | null;
  acceptsPeerTasks: boolean;
  allow: string[];
  /** capabilities.mcp.servers entries that have a name (as written: ${VAR} stays a reference). */
  mcpServers: McpUseView[];
  issues: IssueView[];
}

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
const stringMap = (v: unknown): Record<string, string> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : undefined;

/** The named entries of capabilities.mcp.servers, read leniently (a wrong field is the loader's issue, not a missing edge). */
function mcpUses(servers: unknown): McpUseView[] {
  if (!Array.isArray(servers)) return [];
  return servers.flatMap((s): McpUseView[] => {
    if (!s || typeof s !== 'object' || typeof s.name !== 'string') return [];
    const pick = {
      name: s.name,
      command: typeof s.command === 'string' ? s.command : undefined,
      args: strings(s.args),
      env: stringMap(s.env),
      cwd: typeof s.cwd === 'string' ? s.cwd : undefined,
      url: typeof s.url === 'string' ? s.url : undefined,
      headers: stringMap(s.headers),
      timeout: typeof s.timeout === 'string' || typeof s.timeout === 'number' ? s.timeout : undefined,
      tools: strings(s.tools),
    };
    return [Object.fromEntries(Object.entries(pick).filter(([, v]) => v !== undefined)) as McpUseView];
  });
}

/** The first thing to fix in a manifest that does not load, as `file:line: field: message`; undefined when it loads. */
export function manifestProblem(manifestPath: string, issues: readonly IssueView[]): string | undefined {
  const first = issues[0];
  if (!first) return undefined;
  return `${manifestPath}${first.line ? `:${first.line}` : ''}: ${first.path ? `${first.path}: ` : ''}${first.message}`;
}

export const hashSource = (source: string): string => createHash('sha256').update(source).digest('hex').slice(0, 16);

function lineAt(doc: Document, source: string, path: string): number | undefined {
  const keys = path ? path.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k)) : [];
  // Walk down as far as the path exists: a missing field is reported on its parent.
  for (let n = keys.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(keys.slice(0, n), true);
    const offset = (node as { range?: number[] } | null)?.range?.[0];
    if (offset !== undefined) return source.slice(0, offset).split('\n').length;
  }
  return undefined;
}

/** What a node shows of what a capsule is: its name, role, driver and model. */
export type ManifestFacts = Pick<ManifestSummary, 'name' | 'role' | 'driver' | 'model' | 'rehearsal'>;

/** The facts of a manifest read as a plain object: the file on disk's, or a running session's own. */
export function manifestFacts(obj: Record<string, any>): ManifestFacts {
  const artifact: unknown = obj.inference?.driver?.artifact;
  const driver =
    typeof artifact === 'string' ? ((DRIVER_ARTIFACTS as Record<string, string>)[artifact] ?? artifact) : null;
  return {
    name: typeof obj.name === 'string' ? obj.name : null,
    role: ['orchestrator', 'worker', 'agent'].includes(obj.role) ? obj.role : null,
    driver,
    model: typeof obj.inference?.model === 'string' ? obj.inference.model : driver === 'rehearsal' ? 'rehearsal' : null,
    rehearsal: driver === 'rehearsal',
  };
}

export function summarizeManifest(
  source: string,
  file: string,
  env: Record<string, string | undefined> = process.env,
): ManifestSummary {
  const doc = parseDocument(source);
  const raw = (doc.errors.length ? null : doc.toJS()) as Record<string, any> | null;
  const obj = raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {};
  const allow = obj.capabilities?.network?.allow;
  const port = obj.network?.internal_port;
  const issues: IssueView[] = [];
  if (doc.errors.length) {
    for (const e of doc.errors)
      issues.push({
        line: e.linePos?.[0]?.line,
        column: e.linePos?.[0]?.col,
        path: '',
        message: yamlErrorMessage(e),
      });
  } else {
    const loaded = parseManifest(source, file, env);
    if (!loaded.ok) {
      for (const i of loaded.issues)
        issues.push({
          line: i.line ?? lineAt(doc, source, i.path),
          column: i.column,
          path: i.path,
          message: i.message,
          ...(i.hint ? { hint: i.hint } : {}),
        });
    }
  }
  return {
    ...manifestFacts(obj),
    port: Number.isInteger(port) ? port : null,
    acceptsPeerTasks: obj.exports?.peer_tasks?.accept === true,
    allow: Array.isArray(allow) ? allow.filter((a): a is string => typeof a === 'string') : [],
    mcpServers: mcpUses(obj.capabilities?.mcp?.servers),
    issues,
  };
}

/** Whether a YAML text is a mapping we can edit (edits refuse to rewrite a broken file). */
export function editableDocument(source: string, file: string): Document {
  const doc = parseDocument(source);
  if (doc.errors.length)
    throw new Error(
      `${file} has YAML errors; fix them before editing it from the graph (${formatYamlError(doc.errors[0])})`,
    );
  if (!isMap(doc.contents)) throw new Error(`${file} is not a YAML mapping`);
  return doc;
}

export { isSeq };
