// How a model name written in a manifest becomes an OpenAI-style request. Manifests use the names
// people say ("o3-mini-high", "deepseek-r1"); the APIs want an id plus options.

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

export interface OpenAiModelPlan {
  /** The id sent to the API. */
  model: string;
  reasoningEffort?: ReasoningEffort;
  /** Reasoning models take max_completion_tokens and no temperature. */
  reasoning: boolean;
  /** Models served only by the Responses API; everything else uses Chat Completions. */
  api: 'chat' | 'responses';
}

const EFFORT_SUFFIX = /^((?:o\d|gpt-5)[\w.-]*?)-(minimal|low|medium|high)$/;
const REASONING = /^(o\d|gpt-5(?![\w.]*-chat))/;
const RESPONSES_ONLY = /^(o\d[\w.]*-pro|gpt-5[\w.]*-pro|codex-|gpt-[\w.]*-codex|computer-use|o\d[\w.-]*-deep-research)/;

export function planOpenAiModel(name: string): OpenAiModelPlan {
  const m = EFFORT_SUFFIX.exec(name);
  const model = m ? m[1] : name;
  return {
    model,
    reasoningEffort: m ? (m[2] as ReasoningEffort) : undefined,
    reasoning: REASONING.test(model),
    api: RESPONSES_ONLY.test(model) ? 'responses' : 'chat',
  };
}

const DEEPSEEK_ALIASES: Record<string, string> = {
  'deepseek-r1': 'deepseek-reasoner',
  'deepseek-v3': 'deepseek-chat',
};

/** DeepSeek's API ids for the names its models are known by. */
export function deepseekModelId(name: string): string {
  return DEEPSEEK_ALIASES[name] ?? name;
}
