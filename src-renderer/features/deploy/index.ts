export { ExportDialog } from './ExportDialog';
