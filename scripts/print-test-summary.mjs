// Prints the vitest totals from the JSON report as one plain closing line for CI logs:
// "tests: N passed, N failed, N skipped". Exits non-zero when the report is missing or
// records a failure, so the summary can never hide a red run.
import { existsSync, readFileSync } from 'node:fs';

const reportPath = process.argv[2] ?? '.cache/vitest.json';
if (!existsSync(reportPath)) {
  console.error(`no test report at ${reportPath}: did the test step run?`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || report.success === false ? 1 : 0);
