/**
 * Child process of one pass over one verify cell (see `verify-cell.ts`):
 *   node --import tsx verify-cell-child.ts '<CellRequest as JSON>'
 * Measures the cell's table group if asked, then each target group, and sends the `CellPass`
 * to the parent over IPC.
 */
import { measureGroup } from './measure.js';
import { type CellPass, type CellRequest, serializeGroup } from './verify-cell.js';
import { cellTasks, loadWebBuild, TARGET_GROUPS } from './verify-tasks.js';

const request = JSON.parse(process.argv[2] ?? '') as CellRequest;
const { web, file } = await loadWebBuild();
const tasks = await cellTasks(request.bytes, request.kind, web);
const table = request.table ? serializeGroup(await measureGroup(tasks, request.table)) : undefined;
const targets = [];
for (const group of TARGET_GROUPS) {
  const own = tasks.filter((task) => group.tasks.includes(task.name));
  const rounds = request.targets.rounds * group.roundsFactor;
  targets.push(serializeGroup(await measureGroup(own, { ...request.targets, rounds })));
}
const pass: CellPass = { table, targets, webFile: file };
process.send?.(pass, () => process.disconnect());
