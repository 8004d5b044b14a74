export { parsePushConfig, parseConfigRef, webhookUrlProblem, MAX_CONFIGS_PER_TASK } from './validate';
export { createPushStore, PUSH_CONFIGS_FILE, type PushStore, type PushStoreOptions } from './store';
export {
  createPushDelivery,
  pushHeaders,
  DEFAULT_PUSH_TIMING,
  PUSH_CONTENT_TYPE,
  type PushDelivery,
  type PushDeliveryOptions,
  type PushTiming,
} from './delivery';
export { attachPush, type SessionPush, type PushedSession } from './session-push';
export { configurePush, pushOf, existingPushOf } from './registry';
export { inlinePushConfig, attachInlinePushConfig } from './methods';
