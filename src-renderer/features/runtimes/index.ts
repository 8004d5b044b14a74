export { AttachRuntimeDialog } from './AttachRuntimeDialog';
export { RuntimeChips } from './RuntimeChips';
export { RuntimeGroups } from './RuntimeGroups';
export { AddressDialog } from './AddressDialog';
