import type { Manifest } from '../../src-shared/manifest';
import { createAnthropicDriver } from './anthropic';
import { httpDriverOptions, type HttpDriverOptions } from './gateway';
import { createChatCompletionsDriver } from './openai-chat';
import { planOpenAiModel } from './openai-models';
import { createResponsesDriver } from './openai-responses';
import type { Driver } from './types';

// The HTTP drivers by kind. OpenAI models go to Chat Completions unless only the Responses API
// serves them (see openai-models.ts).

export type HttpDriverKind = 'anthropic' | 'openai' | 'deepseek' | 'openai-compatible';

export function isHttpDriverKind(kind: string): kind is HttpDriverKind {
  return kind === 'anthropic' || kind === 'openai' || kind === 'deepseek' || kind === 'openai-compatible';
}

export function createHttpDriver(kind: HttpDriverKind, opts: HttpDriverOptions): Driver {
  switch (kind) {
    case 'anthropic':
      return createAnthropicDriver(opts);
    case 'openai':
      return planOpenAiModel(opts.model).api === 'responses'
        ? createResponsesDriver(opts)
        : createChatCompletionsDriver('openai', opts);
    default:
      return createChatCompletionsDriver(kind, opts);
  }
}

/** The driver a manifest declares, with endpoint and key from its artifact's gateway. */
export function createHttpDriverFor(
  manifest: Manifest,
  kind: HttpDriverKind,
  overrides: Partial<HttpDriverOptions> = {},
): Driver {
  return createHttpDriver(kind, { ...httpDriverOptions(manifest, kind), ...overrides });
}
