// Files written whole: the bottom of src-main's folder order, so every folder may use it.
export { atomicWrite, atomicWriteSync, type AtomicWriteOptions } from './atomic-write';
