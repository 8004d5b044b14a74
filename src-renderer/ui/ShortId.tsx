// A long id (a task's, a context's, a session's) is abbreviated one way everywhere: "…" and its last
// six characters, as on the node's task strip, in the Tasks tab's rows and in the console, so a
// user can match one to the other. The whole id is in the tooltip.

const SHOWN = 6;

/** The short form of an id: its end ("…e09310"); an id that short already stays whole. */
export function shortId(id: string): string {
  return id.length > SHOWN + 1 ? `…${id.slice(-SHOWN)}` : id;
}

/**
 * An id in its short form. The tooltip names it and gives all of it ("Task tsk_01a2…"; `what` is
 * "Task", "A2A contextId"), which a screen reader reads as its description; `data-id` holds the id.
 */
export function ShortId({ id, what, className }: { id: string; what: string; className?: string }) {
  return (
    <span className={className ? `mono short-id ${className}` : 'mono short-id'} title={`${what} ${id}`} data-id={id}>
      {shortId(id)}
    </span>
  );
}
