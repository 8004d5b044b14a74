// Tasks of a formation's sessions on one time axis, linked by cause.
export { TimelineView } from './TimelineView';
