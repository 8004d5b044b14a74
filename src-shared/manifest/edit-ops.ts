import { z } from 'zod';

// The edits the Studio makes to a manifest. The core applies them to the YAML text (keeping the
// user's comments and layout); the graph mapping produces them; both sides share this type.

export const manifestEditOpSchema = z.discriminatedUnion('op', [
  /** Adds an entry to capabilities.network.allow unless an equivalent spelling is already there. */
  z.strictObject({ op: z.literal('addAllow'), entry: z.string().min(1) }),
  /** Removes every entry of capabilities.network.allow equivalent to this one (localhost = 127.0.0.1 = ::1). */
  z.strictObject({ op: z.literal('removeAllow'), entry: z.string().min(1) }),
  z.strictObject({ op: z.literal('setPeerAccept'), value: z.boolean() }),
  z.strictObject({ op: z.literal('setInternalPort'), port: z.number().int().min(1).max(65535) }),
  /** Sets a field (missing parent maps are created); numeric segments index into lists. */
  z.strictObject({ op: z.literal('set'), path: z.array(z.string().min(1)).min(1), value: z.unknown() }),
  z.strictObject({ op: z.literal('delete'), path: z.array(z.string().min(1)).min(1) }),
  /** Adds an entry to capabilities.mcp.servers (and a remote one's URL to the allow list, marked as the edge's). */
  z.strictObject({ op: z.literal('addMcpServer'), server: z.looseObject({ name: z.string().min(1) }) }),
  /** Removes an MCP server entry by name, the allow entry its edge added, and the sections left empty. */
  z.strictObject({ op: z.literal('removeMcpServer'), name: z.string().min(1) }),
  /** Narrows an MCP server entry's `tools` (null: all of the server's tools). */
  z.strictObject({
    op: z.literal('setMcpTools'),
    name: z.string().min(1),
    tools: z.array(z.string().min(1)).max(1000).nullable(),
  }),
]);

export type ManifestEditOp = z.infer<typeof manifestEditOpSchema>;
