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
]);

export type ManifestEditOp = z.infer<typeof manifestEditOpSchema>;
