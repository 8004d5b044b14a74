// The sessions browser (past and running sessions over the trace store).
export { SessionsButton } from './SessionsButton';
