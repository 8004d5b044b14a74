export { LiveTracePanel } from './LiveTracePanel';
