export { createTraceWriter, maskSecrets, type TraceWriter } from './writer';
