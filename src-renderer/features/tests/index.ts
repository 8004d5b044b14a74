export { TestsDialog } from './TestsDialog';
