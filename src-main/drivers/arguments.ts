// Tool-call arguments arrive as streamed JSON text; the loop wants an object.

/** Tool arguments as an object; a model that sent broken JSON gets it back under `_raw`. */
export function parseArguments(json: string): Record<string, unknown> {
  if (!json.trim()) return {};
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return { _raw: json };
  }
}
