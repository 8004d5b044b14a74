export { ConsolePanel } from './ConsolePanel';
