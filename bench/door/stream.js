'use strict';
// The door's streaming first event against the bare floor's round trip (docs/performance.md), both
// with one connection so the figures are latency, not queueing. The floor's round trip swings by
// half between minutes on a shared machine, so the two are measured interleaved: both servers stay
// up, and each round loads one then the other (in turn forwards and backwards). The ratio reported
// is the median of the per-round ratios, with their spread, beside the absolute p50s.
const { floorServer, doorServer, load, stopServer, ratio, median, spreadOf } = require('./servers');

/**
 * Runs `rounds` interleaved rounds against the bench manifest's door (a file path; its home in
 * env.CAPSULE_HOME) and the bare floor.
 */
async function runStreamRounds({ manifest, env, rounds, duration, warmup }) {
  const o = { duration, warmup, concurrency: 1 };
  const floor = await floorServer();
  let door;
  try {
    door = await doorServer(manifest, env);
    const got = [];
    for (let i = 0; i < rounds; i++) {
      const trip = () => load('floor-latency', floor.url, floor.child.pid, o);
      const stream = () => load('door-stream', door.url, door.child.pid, { ...o, mode: 'stream' });
      let floorTrip;
      let doorStream;
      if (i % 2) {
        doorStream = await stream();
        floorTrip = await trip();
      } else {
        floorTrip = await trip();
        doorStream = await stream();
      }
      got.push({ floorTrip, doorStream });
    }
    const p50 = (pct) => (pct ? pct.p50 : null);
    const perRound = got.map(({ floorTrip, doorStream }) => ({
      door_ttfe_p50_ms: p50(doorStream.ttfe_ms),
      floor_round_trip_p50_ms: p50(floorTrip.latency_ms),
      ratio: ratio(p50(doorStream.ttfe_ms), p50(floorTrip.latency_ms)) ?? Infinity,
      door_errors: doorStream.errors,
      other_procs_cores: doorStream.host ? doorStream.host.other_procs_cores : null,
    }));
    const ratios = perRound.map((r) => r.ratio);
    // The round whose ratio is the median carries the full percentiles.
    const mid = got[perRound.findIndex((r) => r.ratio === median(ratios))];
    return {
      ratio: median(ratios),
      spread: spreadOf(ratios),
      door_ttfe_p50_ms: median(perRound.map((r) => r.door_ttfe_p50_ms ?? Infinity)),
      floor_round_trip_p50_ms: median(perRound.map((r) => r.floor_round_trip_p50_ms ?? Infinity)),
      rounds: perRound,
      floor_round_trip_ms: mid.floorTrip.latency_ms || null,
      door_ttfe_ms: mid.doorStream.ttfe_ms || null,
      door_time_to_final_ms: mid.doorStream.ttfinal_ms || null,
      errors: got.reduce((n, r) => n + (r.doorStream.errors || 0), 0),
      raw: { floorTrip: mid.floorTrip, doorStream: mid.doorStream },
    };
  } finally {
    await Promise.all([stopServer(floor.child), door && stopServer(door.child)]);
  }
}

module.exports = { runStreamRounds };
