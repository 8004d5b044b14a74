export { HistoryDialog } from './HistoryDialog';
