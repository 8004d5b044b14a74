// A shallow copy that keys are added to afterwards (a trace event given its task id, a message
// given its task's ids), on the task path.
//
// Not `{ ...obj, more }` nor `{ ...obj }` followed by `copy.more = …`: V8 gives an object made by a
// spread a hidden class outside the tree that other objects share, so adding a key to it makes a
// new hidden class for that one object, every time. That costs hundreds of bytes a copy (kept alive
// by old space until a full collection), and every inline cache and JSON.stringify that meets the
// copy takes its slow path. Object.assign onto `{}` goes through the shared hidden classes.

/** Own enumerable keys of `obj`, in order, as `{ ...obj }` copies them. */
export function shallowCopy<T extends object>(obj: T): T {
  // Object.assign sets keys where a spread defines them: the same on `{}`, except for an own
  // `__proto__` key (JSON.parse makes one), which assigning would turn into the copy's prototype.
  return Object.hasOwn(obj, '__proto__') ? { ...obj } : Object.assign({}, obj);
}
