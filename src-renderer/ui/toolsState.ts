import { createUiState } from './uiState';

// Which tool dialog is open (Export for Kubernetes, Tests, OpenTelemetry, History): opened from the
// toolbar's Tools menu or the command palette, one at a time.

export type ToolName = 'export' | 'tests' | 'telemetry' | 'history';

const tool = createUiState<ToolName | null>(null);

export const openTool = (name: ToolName): void => tool.set(name);
export const closeTool = (): void => tool.set(null);
export const useOpenTool = (): ToolName | null => tool.use();
