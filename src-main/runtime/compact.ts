// The compact form of finished tasks lives beside the trace (task_end lines carry it); the
// registry keeps its newest finished tasks in it.
export { compactOf, compactTask, expandTask, taskOfCompact, type CompactTask } from '../trace';
