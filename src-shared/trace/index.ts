export * from './events';
export * from './describe';
