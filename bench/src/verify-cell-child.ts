/**
 * Child process of one pass over one verify cell (see `verify-cell.ts`):
 *   node --import tsx verify-cell-child.ts '<CellRequest as JSON>'
 * Measures the cell's table group or its target groups, as asked, and sends the `CellPass` to
 * the parent over IPC.
 */
import { measureGroup } from './measure.js';
import { type CellPass, type CellRequest, serializeGroup } from './verify-cell.js';
import { cellTasks, loadWebBuild, TARGET_GROUPS } from './verify-tasks.js';

const request = JSON.parse(process.argv[2] ?? '') as CellRequest;
const { web, file } = await loadWebBuild();
const forTable = request.measure === 'table';
const tasks = await cellTasks(request.bytes, request.kind, web, forTable);
const table = forTable ? serializeGroup(await measureGroup(tasks, request.budget)) : undefined;
const targets = [];
for (const group of forTable ? [] : TARGET_GROUPS) {
  const own = tasks.filter((task) => group.tasks.includes(task.name));
  const rounds = request.budget.rounds * group.roundsFactor;
  targets.push(serializeGroup(await measureGroup(own, { ...request.budget, rounds })));
}
const pass: CellPass = { table, targets, webFile: file };
process.send?.(pass, () => process.disconnect());
