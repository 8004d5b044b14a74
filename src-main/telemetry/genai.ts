// The OpenTelemetry GenAI semantic-convention names this exporter writes. They are still
// "incubating" upstream, whose advice is to copy the names rather than import the incubating
// entry point (it may change in a minor release); a test checks them against the package.

export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  agentVersion: 'gen_ai.agent.version',
  conversationId: 'gen_ai.conversation.id',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
} as const;

export const GEN_AI_OPERATION = {
  chat: 'chat',
  invokeAgent: 'invoke_agent',
  executeTool: 'execute_tool',
} as const;

/** gen_ai.provider.name for each driver kind (the rehearsal driver is no provider: it says so). */
export const PROVIDER_OF_DRIVER: Record<string, string> = {
  anthropic: 'anthropic',
  openai: 'openai',
  deepseek: 'deepseek',
  'openai-compatible': 'openai',
  rehearsal: 'capsule.rehearsal',
  process: 'capsule.process',
};
