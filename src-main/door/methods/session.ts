import type { MethodHandler } from '../methods';
import { agentCardOf } from '../card';

// GetExtendedAgentCard and the door extension's murmur.StopSession.

export const getExtendedAgentCard: MethodHandler = (ctx) => agentCardOf(ctx.session, ctx.methods);

export const stopSession: MethodHandler = (ctx) => ctx.session.stopSession();
