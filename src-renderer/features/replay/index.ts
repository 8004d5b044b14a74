export { ReplayBar } from './ReplayBar';
export { offsetLabel } from './replayText';
