export { ConsolePanel } from './ConsolePanel';
export { TaskStateBadge } from './TaskStateBadge';
export { InputReply } from './InputReply';
