import { isMap, isScalar, isSeq, type Document } from 'yaml';
import { DRIVER_ARTIFACTS } from '../../../../src-shared/manifest';
import { listAt, setAt, textAt, type DocEdit } from './formDoc';

// One preset per built-in driver (src-shared DRIVER_ARTIFACTS, the drivers in src-main/drivers):
// what choosing it writes. The endpoint and key live on the artifacts[] entry the driver names
// (gateway.endpoint, gateway.api_key); the key is only ever written as a ${VAR} reference, so the
// secret itself stays in the Secrets store or the environment.

export interface DriverPreset {
  artifact: keyof typeof DRIVER_ARTIFACTS;
  label: string;
  transport: 'http' | 'process' | 'embedded';
  model: string;
  /** Models offered in the model field's list (any other name may be typed). */
  models: string[];
  /** The provider's public endpoint, used when the manifest names none (shown as the placeholder). */
  endpoint?: string;
  /** True when the driver needs an endpoint written (no public default). */
  needsEndpoint?: boolean;
  /** The secret name the key is read from by default; absent for drivers with no key. */
  keyVar?: string;
  /** A key is optional (a local server may take none). */
  keyOptional?: boolean;
}

export const DRIVER_PRESETS: readonly DriverPreset[] = [
  {
    artifact: 'capsule/driver-rehearsal',
    label: 'Rehearsal (offline, scripted)',
    transport: 'embedded',
    model: 'rehearsal',
    models: ['rehearsal'],
  },
  {
    artifact: 'murmur/driver-anthropic',
    label: 'Anthropic',
    transport: 'http',
    model: 'claude-sonnet-5',
    models: ['claude-opus-4-5', 'claude-sonnet-5', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-3-5-haiku-latest'],
    endpoint: 'https://api.anthropic.com',
    keyVar: 'ANTHROPIC_API_KEY',
  },
  {
    artifact: 'murmur/driver-openai',
    label: 'OpenAI',
    transport: 'http',
    model: 'gpt-5-mini',
    models: [
      'gpt-5',
      'gpt-5-mini',
      'gpt-5-nano',
      'gpt-4.1',
      'gpt-4.1-mini',
      'gpt-4o',
      'gpt-4o-mini',
      'o3',
      'o3-mini-high',
      'o4-mini',
    ],
    endpoint: 'https://api.openai.com/v1',
    keyVar: 'OPENAI_API_KEY',
  },
  {
    artifact: 'murmur/driver-deepseek',
    label: 'DeepSeek',
    transport: 'http',
    model: 'deepseek-chat',
    models: ['deepseek-chat', 'deepseek-reasoner', 'deepseek-r1', 'deepseek-v3'],
    endpoint: 'https://api.deepseek.com',
    keyVar: 'DEEPSEEK_API_KEY',
  },
  {
    artifact: 'capsule/driver-openai-compatible',
    label: 'OpenAI-compatible (Ollama, llama.cpp, vLLM)',
    transport: 'http',
    model: 'llama3.1',
    models: ['llama3.1', 'qwen2.5', 'mistral'],
    endpoint: 'http://127.0.0.1:11434/v1',
    needsEndpoint: true,
    keyVar: 'LOCAL_LLM_API_KEY',
    keyOptional: true,
  },
  {
    artifact: 'capsule/driver-process',
    label: 'Harness CLI (process)',
    transport: 'process',
    model: 'harness',
    models: [],
  },
];

export const presetOf = (artifact: string): DriverPreset | undefined =>
  DRIVER_PRESETS.find((p) => p.artifact === artifact);

const VAR_ONLY = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
/** A name the key may be read from: letters, digits and underscores, not starting with a digit. */
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The index of the artifacts[] entry the driver names, or -1. */
export function artifactIndex(data: unknown, artifact: string): number {
  return listAt(data, ['artifacts']).findIndex(
    (a) => !!a && typeof a === 'object' && (a as { name?: unknown }).name === artifact,
  );
}

export interface GatewayView {
  endpoint: string;
  /** The variable the key is read from, when it is written as exactly one `${VAR}`. */
  keyVar: string;
  /** The key is written as something other than one ${VAR} reference (a literal key, or text around it). */
  keyLiteral: boolean;
}

export function readGateway(data: unknown, artifact: string): GatewayView {
  const i = artifactIndex(data, artifact);
  if (i < 0) return { endpoint: '', keyVar: '', keyLiteral: false };
  const key = textAt(data, ['artifacts', i, 'gateway', 'api_key']);
  const m = VAR_ONLY.exec(key);
  return {
    endpoint: textAt(data, ['artifacts', i, 'gateway', 'endpoint']),
    keyVar: m ? m[1] : '',
    keyLiteral: key !== '' && !m,
  };
}

/** The artifacts[] entry for `artifact`, made when absent (name and runtime: driver). */
function ensureArtifact(doc: Document, artifact: string): number {
  const seq = doc.getIn(['artifacts'], true);
  if (seq !== undefined && seq !== null && !isSeq(seq))
    throw new Error('artifacts is not a list in the YAML; fix it there first');
  const items = isSeq(seq) ? seq.items : [];
  const found = items.findIndex((n) => isMap(n) && isScalar(n.get('name', true)) && n.get('name') === artifact);
  if (found >= 0) return found;
  if (!isSeq(seq)) {
    doc.setIn(['artifacts'], doc.createNode([{ name: artifact, runtime: 'driver' }]));
    return 0;
  }
  if (seq.flow && seq.items.length === 0) seq.flow = false;
  seq.items.push(doc.createNode({ name: artifact, runtime: 'driver' }));
  return seq.items.length - 1;
}

/** Writes the driver's endpoint ('' removes it). */
export const setEndpoint =
  (artifact: string, endpoint: string): DocEdit =>
  (doc) => {
    const data = doc.toJS() as unknown;
    if (endpoint.trim() === '' && artifactIndex(data, artifact) < 0) return;
    const i = ensureArtifact(doc, artifact);
    setAt(['artifacts', i, 'gateway', 'endpoint'], endpoint.trim())(doc);
  };

/** Writes the key as `${name}`; '' removes it. A name that is no variable name is refused. */
export const setKeyVar =
  (artifact: string, name: string): DocEdit =>
  (doc) => {
    const n = name.trim();
    if (n !== '' && !SECRET_NAME.test(n))
      throw new Error(`"${n}" is not a secret name: letters, digits and _, not starting with a digit`);
    const data = doc.toJS() as unknown;
    if (n === '' && artifactIndex(data, artifact) < 0) return;
    const i = ensureArtifact(doc, artifact);
    setAt(['artifacts', i, 'gateway', 'api_key'], n ? `\${${n}}` : '')(doc);
  };

/**
 * Switches the capsule to a driver: artifact, transport and the preset model (unless the model
 * written is already one of the preset's), plus the endpoint and `${VAR}` key entry for HTTP drivers
 * that have none yet. Other artifacts[] entries and every other field stay.
 */
export function choosePreset(preset: DriverPreset, data: unknown): DocEdit[] {
  const edits: DocEdit[] = [
    setAt(['inference', 'driver', 'artifact'], preset.artifact),
    setAt(['inference', 'transport'], preset.transport),
  ];
  const model = textAt(data, ['inference', 'model']);
  if (!preset.models.includes(model) || model === '') edits.push(setAt(['inference', 'model'], preset.model));
  if (preset.keyVar && artifactIndex(data, preset.artifact) < 0) {
    if (preset.needsEndpoint && preset.endpoint) edits.push(setEndpoint(preset.artifact, preset.endpoint));
    if (!preset.keyOptional) edits.push(setKeyVar(preset.artifact, preset.keyVar));
  }
  if (preset.transport === 'process' && !textAt(data, ['inference', 'harness', 'command']))
    edits.push(setAt(['inference', 'harness', 'command'], 'my-agent-cli'));
  return edits;
}
