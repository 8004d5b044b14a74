export { TestsDialog } from './TestsDialog';
export { SaveAsTest } from './SaveAsTest';
export { TestResult } from './TestResult';
