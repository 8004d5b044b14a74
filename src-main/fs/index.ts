// Files written whole, and read again only when they changed: the bottom of src-main's folder
// order, so every folder may use it.
export { atomicWrite, atomicWriteSync, type AtomicWriteOptions } from './atomic-write';
export { fileStamp, fileStampSync, NO_FILE, stampedReader } from './stamp';
