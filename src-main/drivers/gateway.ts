import type { DriverKind, Manifest } from '../../src-shared/manifest';
import type { RetryPolicy } from './retry';

// Where an HTTP driver sends its requests, and with which key: the manifest's artifacts[] entry
// whose name is inference.driver.artifact carries them in `gateway`. Endpoints follow each
// provider's own SDK convention (Anthropic without /v1, OpenAI-style ones with it).

/** Everything an HTTP driver needs besides the conversation. */
export interface HttpDriverOptions {
  model: string;
  /** Base URL as written in the manifest (gateway.endpoint). */
  endpoint: string;
  /** gateway.api_key; optional only for local OpenAI-compatible servers. */
  apiKey?: string;
  /** Default max output tokens when a turn does not say (inference.max_tokens). */
  maxTokens?: number;
  temperature?: number;
  retry?: Partial<RetryPolicy>;
  /** Per-request timeout; the SDK default (10 min) otherwise. */
  timeoutMs?: number;
}

const DEFAULT_ENDPOINTS: Partial<Record<DriverKind, string>> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  deepseek: 'https://api.deepseek.com',
};

/** The gateway of the manifest's driver artifact, with the provider's public endpoint as fallback. */
export function gatewayOf(manifest: Manifest, kind: DriverKind): { endpoint?: string; apiKey?: string } {
  const artifact = manifest.artifacts.find((a) => a.name === manifest.inference.driver.artifact);
  const endpoint = artifact?.gateway?.endpoint || DEFAULT_ENDPOINTS[kind];
  const apiKey = artifact?.gateway?.api_key || undefined;
  return { endpoint, apiKey };
}

/** HttpDriverOptions for a manifest, or an error naming what is missing. */
export function httpDriverOptions(manifest: Manifest, kind: DriverKind): HttpDriverOptions {
  const { endpoint, apiKey } = gatewayOf(manifest, kind);
  if (!endpoint) {
    throw new Error(
      `driver ${manifest.inference.driver.artifact} needs gateway.endpoint on its artifacts[] entry (e.g. http://127.0.0.1:11434/v1 for Ollama)`,
    );
  }
  return {
    model: manifest.inference.model,
    endpoint,
    apiKey,
    maxTokens: manifest.inference.max_tokens,
    temperature: manifest.inference.temperature,
  };
}
