export { ConsolePanel } from './ConsolePanel';
export { TaskStateBadge } from './TaskStateBadge';
