// Test stand-ins for model providers and harness CLIs. Never imported by product code.
export { startFakeProvider, type FakeProvider, type RecordedRequest, type WireName } from './provider-server';
export type { FakeReply, FakeToolCall } from './script';
