export { RuntimeChips } from './RuntimeChips';
export { RuntimeGroups } from './RuntimeGroups';
import { lazyWhen } from '../../ui/lazyWhen';

// The dialogs load when first opened (see lazyWhen).
export const AttachRuntimeDialog = lazyWhen(
  (s) => s.attachOpen,
  () => import('./AttachRuntimeDialog').then((m) => m.AttachRuntimeDialog),
);
export const AddressDialog = lazyWhen(
  (s) => !!s.addressAsk,
  () => import('./AddressDialog').then((m) => m.AddressDialog),
);
