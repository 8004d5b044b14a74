import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { COMMAND_NAMES, commands } from './index';

// Every command declares where it runs, and the fields its declaration reads exist in its input:
// a renamed field cannot silently leave a runtime's command running on this Studio.

/** The keys an input schema takes (through optional, unions of objects). */
function keysOf(schema: z.ZodType): string[] {
  const s = schema as unknown as { shape?: Record<string, unknown>; options?: z.ZodType[]; unwrap?: () => z.ZodType };
  if (s.shape) return Object.keys(s.shape);
  if (s.options) return s.options.flatMap(keysOf);
  if (s.unwrap) return keysOf(s.unwrap());
  return [];
}

describe('command routes', () => {
  it('name only fields their command takes', () => {
    for (const name of COMMAND_NAMES) {
      const route = commands[name].route;
      const keys = keysOf(commands[name].input);
      const named = [...(route.capsules ?? []), ...(route.sessions ?? []), ...(route.runtime ? ['runtime'] : [])];
      expect({ name, missing: named.filter((f) => !keys.includes(f)) }).toEqual({ name, missing: [] });
      // A command for another host names what it runs on; one that names nothing runs here.
      if (route.runs !== 'here') expect({ name, names: named.length > 0 }).toEqual({ name, names: true });
    }
  });

  it('declares every field that names a capsule or session as such', () => {
    const naming = ['id', 'capsuleId', 'sessionId', 'sessionIds', 'runtime'];
    const loose = COMMAND_NAMES.filter((name) => {
      const r = commands[name].route;
      const declared = new Set([...(r.capsules ?? []), ...(r.sessions ?? []), ...(r.runtime ? ['runtime'] : [])]);
      return r.runs !== 'here' && keysOf(commands[name].input).some((k) => naming.includes(k) && !declared.has(k));
    });
    expect(loose).toEqual([]);
  });
});
