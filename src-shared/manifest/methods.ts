// exports.methods: which A2A methods a capsule's door serves. One pure function turns the
// manifest's list into method names, so the door's dispatch and its agent card read the same
// answer whatever shape the door's method table takes.

/** The A2A 1.0 JSON-RPC methods a door can serve. */
export const A2A_METHODS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
] as const;
export type A2AMethod = (typeof A2A_METHODS)[number];

/**
 * Older names a manifest may use (older manifests write `tasks/send`, `tasks/get`; docs/door.md): 0.3 and 0.1 method
 * names mapped to the 1.0 methods doing that job. The push-config names cover the four methods.
 */
const OLDER_NAMES: Record<string, readonly A2AMethod[]> = {
  'message/send': ['SendMessage'],
  'tasks/send': ['SendMessage'],
  'message/stream': ['SendStreamingMessage'],
  'tasks/sendSubscribe': ['SendStreamingMessage'],
  'tasks/get': ['GetTask'],
  'tasks/list': ['ListTasks'],
  'tasks/cancel': ['CancelTask'],
  'tasks/resubscribe': ['SubscribeToTask'],
  'tasks/pushNotificationConfig/set': ['CreateTaskPushNotificationConfig'],
  'tasks/pushNotificationConfig/get': ['GetTaskPushNotificationConfig'],
  'tasks/pushNotificationConfig/list': ['ListTaskPushNotificationConfigs'],
  'tasks/pushNotificationConfig/delete': ['DeleteTaskPushNotificationConfig'],
  'tasks/pushNotification/set': ['CreateTaskPushNotificationConfig'],
  'tasks/pushNotification/get': ['GetTaskPushNotificationConfig'],
  'agent/getAuthenticatedExtendedCard': ['GetExtendedAgentCard'],
};

const KNOWN = new Set<string>(A2A_METHODS);

/** Whether a name may appear in exports.methods. */
export function isServableMethod(name: string): boolean {
  return KNOWN.has(name) || name in OLDER_NAMES;
}

/**
 * The A2A methods a door serves, from the manifest's exports.methods: undefined (no list) serves
 * them all. The door's own extension methods (murmur.*) are not A2A methods and are not filtered:
 * the Studio and the CLI stop and watch sessions through them.
 */
export function servedMethods(list: readonly string[] | undefined): ReadonlySet<A2AMethod> | undefined {
  if (!list) return undefined;
  const out = new Set<A2AMethod>();
  for (const name of list) {
    if (KNOWN.has(name)) out.add(name as A2AMethod);
    else for (const m of OLDER_NAMES[name] ?? []) out.add(m);
  }
  return out;
}

/** Whether the door serves `method` (an A2A method or a door extension method). */
export function servesMethod(served: ReadonlySet<string> | undefined, method: string): boolean {
  return served === undefined || !KNOWN.has(method) || served.has(method);
}
