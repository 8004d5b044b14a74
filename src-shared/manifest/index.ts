export * from './schema';
export * from './allow';
export * from './edit-ops';
export * from './graph';
export * from './port-follow';
export * from './hints';
export * from './yaml-errors';
