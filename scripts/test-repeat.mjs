// Runs the unit, relay and browser projects N times and prints how many runs were green, and which tests
// failed in the red ones: a flaky test shows up here long before it fails on CI.
//
//   npm run test:repeat -- 5                      every project, 5 runs each
//   npm run test:repeat -- 5 --project unit       one project
//   npm run test:repeat -- 3 --project browser test/browser/board-chart.test.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const runs = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 5;
const projects = [];
const filters = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--project') projects.push(args[++i]);
  else if (args[i].startsWith('--project=')) projects.push(args[i].slice('--project='.length));
  else filters.push(args[i]);
}
const KNOWN = ['unit', 'relay', 'browser'];
if (projects.length === 0) projects.push(...KNOWN);
if (runs < 1 || projects.some((p) => !KNOWN.includes(p))) {
  console.error('usage: npm run test:repeat -- [runs] [--project unit|relay|browser]... [test files]');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'test-repeat-'));
/** project → { green, red: [{ run, failed: string[] }] } */
const results = new Map(projects.map((p) => [p, { green: 0, red: [] }]));

/** Names of failed tests (file › suite › test) from Vitest's JSON report. */
function failedTests(file) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return ['(no report: the run did not finish)'];
  }
  const failed = [];
  for (const suite of report.testResults ?? []) {
    const name = suite.name.replace(`${process.cwd()}/`, '');
    const tests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of tests) failed.push(`${name} › ${[...(t.ancestorTitles ?? []), t.title].join(' › ')}`);
    if (tests.length === 0 && suite.status === 'failed')
      failed.push(`${name} (${(suite.message ?? 'failed').split('\n')[0]})`);
  }
  return failed.length > 0 ? failed : ['(red, but no failed test named: see the output above)'];
}

for (const project of projects) {
  for (let run = 1; run <= runs; run++) {
    const report = join(dir, `${project}-${run}.json`);
    const started = Date.now();
    const { status } = spawnSync(
      'npx',
      [
        'vitest',
        'run',
        '--project',
        project,
        '--reporter=dot',
        '--reporter=json',
        `--outputFile.json=${report}`,
        ...filters,
      ],
      { stdio: 'inherit' },
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const r = results.get(project);
    if (status === 0) r.green++;
    else r.red.push({ run, failed: failedTests(report) });
    console.log(`\n[test:repeat] ${project} run ${run}/${runs}: ${status === 0 ? 'green' : 'RED'} (${seconds} s)\n`);
  }
}
rmSync(dir, { recursive: true, force: true });

console.log('[test:repeat] summary');
let allGreen = true;
for (const [project, { green, red }] of results) {
  console.log(`  ${project}: ${green}/${runs} green`);
  for (const { run, failed } of red) {
    allGreen = false;
    console.log(`    run ${run} failed:`);
    for (const f of failed) console.log(`      - ${f}`);
  }
}
process.exit(allGreen ? 0 : 1);
