export * from './types';
export * from './errors';
export { canonicalCard, AGENT_CARD_FIELDS } from './card-canonical';
export * from './compat03';
export { answerText } from './answer';
