// Runs last (files run one at a time, in name order): adds up what every file of this run recorded
// and prints the suite's one line of figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { sumTotals, totalsFile, type Totals } from './helpers/figures.ts';

test('the suite\'s figures: no crash, no lost write, no unexpected 5xx, RSS within its bound', () => {
  const file = totalsFile();
  if (!existsSync(file)) {
    console.log('reliability: no figures recorded (run the whole suite with npm run test:reliability)');
    return;
  }
  const lines = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Partial<Totals>);
  rmSync(file, { force: true });
  const t = sumTotals(lines);
  console.log(
    `reliability: requests=${t.requests} faults_injected=${t.faultsInjected} bad_inputs=${t.badInputs} unexpected_5xx=${t.unexpected5xx} ` +
      `crashes=${t.crashes} lost_writes=${t.lostWrites} peak_rss_growth=${t.peakRssGrowthMb}MB bound=${t.rssBoundMb}MB (cache budget + 100 MB) files=${t.files}`,
  );
  assert.equal(t.crashes, 0);
  assert.equal(t.lostWrites, 0);
  assert.equal(t.unexpected5xx, 0);
  assert.ok(t.peakRssGrowthMb <= t.rssBoundMb, `peak RSS growth ${t.peakRssGrowthMb} MB over the bound ${t.rssBoundMb} MB`);
});
