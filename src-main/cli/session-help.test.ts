import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as cancel from './cancel';
import * as expose from './expose';
import * as ps from './ps';
import * as run from './run';
import * as send from './send';
import * as stop from './stop';
import * as trace from './trace';
import * as watch from './watch';
import { ADDRESS_RULE, ADDRESS_RULE_HELP } from './session-help';

// What @1 means is one rule, said the same way in every command's help and in the README.

describe('the session address rule', () => {
  it('closes the help of every command that takes a session, and the README says it word for word', () => {
    for (const [name, command] of Object.entries({ run, ps, send, cancel, stop, watch, expose, trace })) {
      expect(command.usage.endsWith(ADDRESS_RULE_HELP), name).toBe(true);
    }
    const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(ADDRESS_RULE);
  });
});
