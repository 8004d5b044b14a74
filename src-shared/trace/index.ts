export * from './events';
export * from './describe';
export * from './flow';
