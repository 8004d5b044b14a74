export { TaskInspector } from './TaskInspector';
export { CopyButton, copyText } from './CopyButton';
export { formatJson, clipText, JSON_SHOWN_CHARS } from './json';
export { JsonBlock } from './JsonBlock';
