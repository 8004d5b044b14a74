import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import type { PublishedView } from '../../src-shared/contract';
import { stampedReader } from '../fs';
import { writeFileAtomicAsync } from '../workspace';
import { PUBLISHED_FILE } from './snapshot';

// published.yaml: which version of the formation outside callers get through the gateway. It is a
// plain file in the workspace, kept in the history like the manifests, so each publish (and the
// override of failing tests, when there was one) is a step anyone can read in `git log`.

const record = z.object({
  version: z.string().regex(/^[0-9a-f]{40}$/),
  published_at: z.string(),
  overridden: z.array(z.string()).optional(),
});

const HEADER = '# The version of this formation that outside callers get through the gateway (written by Publish).\n';

/** The published version a file's text names, or null when it does not parse as one. */
function publishedOf(text: string): PublishedView | null {
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch {
    return null;
  }
  const r = record.safeParse(parsed);
  if (!r.success) return null;
  // Frozen: one parse serves every caller until the file changes.
  return Object.freeze({
    version: r.data.version,
    short: r.data.version.slice(0, 7),
    publishedAt: r.data.published_at,
    ...(r.data.overridden?.length ? { overridden: r.data.overridden } : {}),
  });
}

/** published.yaml read and parsed again only when it changed (src-main/fs/stamp.ts). */
const readPublishedFile = stampedReader(publishedOf, null);

/**
 * The published version, or null when nothing is published (or the file does not read). Off the
 * main thread, and one stat while the file is unchanged: the gateway asks on every call it routes.
 */
export function readPublished(dir: string): Promise<PublishedView | null> {
  return readPublishedFile(join(dir, PUBLISHED_FILE));
}

export async function writePublished(dir: string, version: string, overridden: string[]): Promise<PublishedView> {
  const rec = { version, published_at: new Date().toISOString(), ...(overridden.length ? { overridden } : {}) };
  await writeFileAtomicAsync(join(dir, PUBLISHED_FILE), HEADER + stringify(rec));
  return (await readPublished(dir))!;
}
