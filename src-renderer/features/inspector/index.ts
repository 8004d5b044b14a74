export { TaskInspector } from './TaskInspector';
