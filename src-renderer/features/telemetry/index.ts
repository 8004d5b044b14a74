export { TelemetryDialog } from './TelemetryDialog';
