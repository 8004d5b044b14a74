import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_NAME } from '../../src-shared/contract/tests';
import type { Rehearsal } from '../recording';
import { testFileText, testFromRehearsal, TESTS_FOLDER } from './test-file';

// Saving a recorded run as a test (`capsule rehearse --save-test`, "Save as test" in the Studio):
// tests/<name>.yaml in the workspace, expecting exactly what the recording did.

/** Writes the test (replacing one of the same name); returns its file. */
export function saveTest(workspace: string, name: string, r: Rehearsal): string {
  if (!TEST_NAME.test(name)) throw new Error(`"${name}" is not a test name (letters, digits, dot, dash, underscore)`);
  const dir = join(workspace, TESTS_FOLDER);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, testFileText(testFromRehearsal(r)));
  return file;
}

export { TEST_NAME };
