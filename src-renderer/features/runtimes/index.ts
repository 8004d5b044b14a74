export { RuntimeChips } from './RuntimeChips';
import { lazyWhen } from '../../ui/lazyWhen';

// The frames around each attached runtime's capsules load with the first runtime attached.
export const RuntimeGroups = lazyWhen(
  (s) => s.runtimes.length > 0,
  () => import('./RuntimeGroups').then((m) => m.RuntimeGroups),
  "the runtimes' frames",
);

// The dialogs load when first opened (see lazyWhen).
export const AttachRuntimeDialog = lazyWhen(
  (s) => s.attachOpen,
  () => import('./AttachRuntimeDialog').then((m) => m.AttachRuntimeDialog),
);
export const AddressDialog = lazyWhen(
  (s) => !!s.addressAsk,
  () => import('./AddressDialog').then((m) => m.AddressDialog),
);
