// Regression tests for formations: saved rehearsals plus expectations, run against the current
// manifests (`capsule test`, `capsule rehearse --save-test`).
export { readTestFile, testFromRehearsal, testFileText, TESTS_FOLDER, type TestFile, type Matcher } from './test-file';
export { compareTask, describeMatcher, formatDiff, unmet, type Mismatch } from './expect';
export { saveTest, TEST_NAME } from './save';
export { listTests, runTest, runWorkspaceTests, TestRunCanceled, type TestOutcome } from './run';
export { junitReport } from './junit';
export { testResultView } from './studio-commands';
