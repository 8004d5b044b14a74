export * from './events';
export * from './describe';
export * from './flow';
export * from './snippet';
export * from './skipped';
