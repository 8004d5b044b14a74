export { TestsDialog } from './TestsDialog';
export { SaveAsTest } from './SaveAsTest';
