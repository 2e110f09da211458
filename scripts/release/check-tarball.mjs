// What every published tarball must hold, checked on the .tgz itself (not on the folder it came
// from): LICENSE, README, types, ESM and CJS for every entry point, nothing unresolved or stray.
import { execFileSync } from 'node:child_process';

const tar = (...args) => execFileSync('tar', args, { encoding: 'utf8', maxBuffer: 64 << 20 });

/** Each `[condition, target]` leaf under an `import` or `require` branch of an exports target. */
function branchesOf(target, found = []) {
  if (typeof target !== 'object' || target === null) return found;
  for (const [condition, next] of Object.entries(target)) {
    if (condition === 'import' || condition === 'require') found.push([condition, next]);
    else branchesOf(next, found);
  }
  return found;
}

/**
 * Checks one packed tarball.
 * @param tarPath - path of the `.tgz`
 * @returns `{ manifest, files, problems }`; `problems` names each missing or stray file
 */
export function checkTarball(tarPath) {
  const problems = [];
  const files = tar('-tzf', tarPath)
    .split('\n')
    .filter(Boolean)
    .map((file) => file.replace(/^package\//, ''));
  const has = (file) => files.includes(file.replace(/^\.\//, ''));
  const manifest = JSON.parse(tar('-xzOf', tarPath, 'package/package.json'));
  const name = manifest.name;

  for (const required of ['LICENSE', 'README.md', 'package.json']) {
    if (!has(required)) problems.push(`${name}: ${required} missing from the tarball`);
  }
  if (!files.some((file) => file.startsWith('dist/'))) problems.push(`${name}: no dist/`);
  if (JSON.stringify(manifest).includes('workspace:')) {
    problems.push(`${name}: the packed manifest still has a workspace: range`);
  }
  // Decided: no source maps in tarballs (dist/ is readable, unminified ES2022; maps that point
  // at unshipped src/ make bundlers warn, and inlined sources doubled the size).
  for (const map of files.filter((file) => file.endsWith('.map'))) {
    problems.push(`${name}: ${map} is shipped; builds set sourcemap: false`);
  }

  // Every code entry point: an ESM branch (types .d.ts + .js) and a CJS branch (.d.cts + .cjs),
  // types first, and every file they name inside the tarball.
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target === 'string') {
      if (!has(target)) problems.push(`${name}: exports["${subpath}"] ${target} is not shipped`);
      continue;
    }
    const branches = branchesOf(target);
    for (const kind of ['import', 'require']) {
      if (!branches.some(([condition]) => condition === kind)) {
        problems.push(
          `${name}: exports["${subpath}"] has no ${kind} branch (ESM and CJS both ship)`,
        );
      }
    }
    for (const [condition, branch] of branches) {
      const [first] = Object.keys(branch);
      const { types, default: code } = branch;
      const [typesExt, codeExt] = condition === 'import' ? ['.d.ts', '.js'] : ['.d.cts', '.cjs'];
      if (first !== 'types' || !types?.endsWith(typesExt)) {
        problems.push(
          `${name}: exports["${subpath}"].${condition} needs "types" (${typesExt}) first`,
        );
      }
      if (!code?.endsWith(codeExt)) {
        problems.push(
          `${name}: exports["${subpath}"].${condition} default should be a ${codeExt} file`,
        );
      }
      for (const file of [types, code].filter(Boolean)) {
        if (!has(file)) problems.push(`${name}: exports["${subpath}"] ${file} is not shipped`);
      }
    }
  }
  for (const field of ['main', 'module', 'types']) {
    if (manifest[field] && !has(manifest[field])) {
      problems.push(`${name}: "${field}" ${manifest[field]} is not shipped`);
    }
  }

  // What loads dist/: the exports map, and the committed bin/ launchers (which import dist/).
  const launchers = Object.values(
    typeof manifest.bin === 'string' ? { [name]: manifest.bin } : (manifest.bin ?? {}),
  ).map((bin) => {
    if (!has(bin)) problems.push(`${name}: bin ${bin} is not shipped`);
    return has(bin) ? tar('-xzOf', tarPath, `package/${bin.replace(/^\.\//, '')}`) : '';
  });
  const declaredDist = JSON.stringify(manifest.exports ?? {}) + launchers.join('\n');
  for (const file of files.filter((name) => /^dist\/[^/]+\.c?js$/.test(name))) {
    if (!declaredDist.includes(file.replace(/\.c?js$/, ''))) {
      problems.push(`${name}: ${file} is shipped but nothing loads it`);
    }
  }
  return { manifest, files, problems };
}
