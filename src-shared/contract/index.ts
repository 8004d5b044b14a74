// The typed contract between the renderer and the core (see README beside this file).
export * from './commands';
export * from './events';
export * from './errors';
export * from './types';
export * from './client';
export * from './expose';
export * from './sessions';
export * from './studio';
export * from './follow';
export * from './formation';
export * from './task-send';
export * from './runtimes';
