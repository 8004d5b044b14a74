export { HistoryDialog } from './HistoryDialog';
export { PublishedLine } from './PublishedLine';
