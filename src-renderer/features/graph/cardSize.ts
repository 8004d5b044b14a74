/** A capsule card's size as drawn (graph.css), a little generous. */
export const CARD = { width: 240, height: 180 };
