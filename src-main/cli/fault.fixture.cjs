'use strict';
// Preloaded into a `capsule run` child by last-resort.test.ts: a stand-in for a bug in the
// runtime. A fetch to a path naming a fault loses an error nobody handles, and never answers.
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  if (url.includes('/inject-rejection')) {
    Promise.reject(new Error('injected rejection'));
    return new Promise(() => {});
  }
  if (url.includes('/inject-throw')) {
    setTimeout(() => {
      throw new Error('injected throw');
    }, 1);
    return new Promise(() => {});
  }
  return realFetch(input, init);
};
