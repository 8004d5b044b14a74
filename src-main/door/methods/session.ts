import { registerMethod } from '../methods';
import { agentCardOf } from '../card';

// GetExtendedAgentCard and the door extension's murmur.StopSession.

registerMethod('GetExtendedAgentCard', (ctx) => agentCardOf(ctx.session));

registerMethod('murmur.StopSession', (ctx) => ctx.session.stopSession());
