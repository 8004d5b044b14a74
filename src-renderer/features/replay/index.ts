import { lazyWhen } from '../../ui/lazyWhen';

/** The replay bar, loaded with the first replay (see lazyWhen). */
export const ReplayBar = lazyWhen(
  (s) => s.replay !== null,
  () => import('./ReplayBar').then((m) => m.ReplayBar),
);
export { offsetLabel } from './replayText';
