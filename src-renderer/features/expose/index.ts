export { ExposePanel } from './ExposePanel';
