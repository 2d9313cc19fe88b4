import {freePort} from '../local/ports';
import {launchChromium} from '../support/chromium';
import {startLocalStack} from '../support/localStack';

async function main() {
  const stack = await startLocalStack({flags: ['--built'], env: {META_PIXEL_ID: '', GA_MEASUREMENT_ID: '', CRISP_WEBSITE_ID: ''}, readyTimeoutMs: 20 * 60_000});
  const {default: lighthouse} = await import('lighthouse');
  try {
    const port = await freePort();
    const browser = await launchChromium({debuggingPort: port});
    for (const path of (process.env.PAGES ?? '/docs/components/pricing').split(',')) {
      for (let i = 0; i < Number(process.env.N ?? 6); i++) {
        const r = await lighthouse(stack.siteUrl + path, {port, output: 'json', logLevel: 'error', onlyCategories: ['performance']});
        const lhr = r!.lhr;
        const lt = (lhr.audits['long-tasks'].details as any)?.items ?? [];
        console.log(path, i, 'score', Math.round(lhr.categories.performance.score! * 100), 'TBT', Math.round(lhr.audits['total-blocking-time'].numericValue!), 'bi', lhr.environment.benchmarkIndex);
        for (const t of lt) console.log('   long', Math.round(t.startTime), Math.round(t.duration), t.url);
        if (i === 0) {
          const bt = (lhr.audits['bootup-time'].details as any)?.items ?? [];
          for (const t of bt) console.log('   bootup', t.url, Math.round(t.total), 'script', Math.round(t.scripting), 'parse', Math.round(t.scriptParseCompile));
          const mw = (lhr.audits['mainthread-work-breakdown'].details as any)?.items ?? [];
          for (const t of mw) console.log('   main', t.groupLabel, Math.round(t.duration));
        }
      }
    }
    await browser.close();
  } finally {
    await stack.interrupt();
  }
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
