'use strict';
// The outside caller of gateway-load.ts: `rate` GetTask calls a second until told to stop, then it
// reports how many were sent, answered (a JSON-RPC answer, error or not) and failed.
const [url, token, rateText] = process.argv.slice(2);
const rate = Number(rateText);
const counts = { sent: 0, answered: 0, failed: 0, reasons: {} };
const failed = (why) => {
  counts.failed++;
  counts.reasons[why] = (counts.reasons[why] ?? 0) + 1;
};
const inFlight = new Set();
const body = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'GetTask', params: { id: 'tsk_not_here' } });

const call = () => {
  counts.sent++;
  const p = fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: body(counts.sent),
  })
    .then(async (res) => {
      const text = await res.text();
      if (text.startsWith('{"jsonrpc":"2.0"')) counts.answered++;
      else failed(`HTTP ${res.status} ${text.slice(0, 80)}`);
    })
    .catch((err) => failed(String(err.cause?.code ?? err.message)))
    .finally(() => inFlight.delete(p));
  inFlight.add(p);
};

const started = Date.now();
const timer = setInterval(() => {
  // Calls due by now: a late tick catches up instead of lowering the rate.
  const due = Math.floor(((Date.now() - started) / 1000) * rate);
  while (counts.sent < due) call();
}, 10);

process.on('message', async () => {
  clearInterval(timer);
  await Promise.allSettled([...inFlight]);
  process.send(counts, () => process.exit(0));
});
