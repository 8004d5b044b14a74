// The variable the end-to-end tests set to open cloudflared tunnels through a loopback stand-in
// (tunnel-stand-in.ts). Its own module, so `capsule studio` reads it without loading test support.
export const STAND_IN_VAR = 'CAPSULE_TEST_TUNNEL_STAND_IN';
