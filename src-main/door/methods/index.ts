import type { MethodTable } from '../methods';
import { createPushConfig, deletePushConfig, getPushConfig, listPushConfigs } from '../push/methods';
import { sendStreamingMessage, subscribeToTask, watchSessionMethod } from '../stream/methods';
import { listTasks } from './list';
import { sendMessage } from './send';
import { endSession } from './end-session';
import { getExtendedAgentCard, stopSession } from './session';
import { cancelTask, getTask } from './tasks';

// Every method a capsule's door serves, one line each: adding a method is one line here.
// A capsule serving fewer takes a part of it (pickMethods); the card follows what is served.
export const doorMethods: MethodTable = Object.freeze({
  SendMessage: sendMessage,
  GetTask: getTask,
  CancelTask: cancelTask,
  ListTasks: listTasks,
  GetExtendedAgentCard: getExtendedAgentCard,
  'murmur.StopSession': stopSession,
  'murmur.EndSession': endSession,
  SendStreamingMessage: sendStreamingMessage,
  SubscribeToTask: subscribeToTask,
  'murmur.WatchSession': watchSessionMethod,
  CreateTaskPushNotificationConfig: createPushConfig,
  GetTaskPushNotificationConfig: getPushConfig,
  ListTaskPushNotificationConfigs: listPushConfigs,
  DeleteTaskPushNotificationConfig: deletePushConfig,
});
