import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

describe('npm run bench', () => {
  it('runs every measurement end to end (tiny counts, no timing asserted)', async () => {
    const result = await execa(
      'node',
      // --hub-node-option and --hub-arg, with what the hubs run with anyway.
      [
        '--import',
        'tsx',
        'bench/run.ts',
        '--smoke',
        '--hub-node-option',
        '--max-semi-space-size=8',
        '--hub-arg',
        '--graphql-ws-server=hub',
      ],
      { cwd: new URL('../..', import.meta.url).pathname, reject: false, timeout: 480_000 },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^section\s+measure\s+value\s+target$/);
    for (const measure of [
      /^first [\d.]+ s, .*a user: 1 real session just created, fetch, 1,500\/s, 1 sub, p50 \/ p99/,
      /^hook ingest\s+c=1 p50 \/ p99/,
      /^hook ingest\s+c=64 throughput .*events\/s/,
      /^hook ingest\s+at 1,000 events\/s p50 \/ p99 .* ms/,
      /^fan-out 2,000\/s\s+10 sub x 1 session p50 \/ p99/,
      /^overload\s+carried \(subscribers keep up, p99 < 250 ms\): 10 sub\s+\d+ events\/s/,
      /^overload\s+hook answer at \d+\/s after 0.25 s p50 \/ p99/,
      /^overload\s+the same, a hub no one subscribes to, after 0.25 s\s+hub [\d.]+ ms \/ .*\(hub CPU \d+%/,
      /^overload\s+to subscribers p50 \/ p99 \/ max\s+hub .* ms, \d+ of 10 kept/,
      /^overload\s+1 sub paused until cut, may lag 100\s+cut \d+x after [\d.]+ ms paused \(\d+ events offered meanwhile\), each time resumed with after; got seq 1-(\d+) of \1, \d+ events, 0 out of order/,
      /^fleet\s+RSS a session, 20 sessions idle\s+-?[\d.]+ KB/,
      /^fleet\s+hook answer, 20 sessions, [\d,]+ events\/s p50 \/ p99 \/ max\s+hub [\d.]+ ms/,
      /^fleet\s+Stop to IDLE raised, every dashboard p50 \/ p99 \/ max\s+.*got attention [\d,]+ msgs/,
      /^fleet\s+Query.sessions, 20 sessions: overview \(the dashboard's\)/,
      /^fleet, 3 nodes\s+the same on another node p50 \/ p99 \/ max\s+[\d.]+ ms/,
      /^dashboard page\s+long tasks, 20 sessions, 50 changes\/s for 1 s\s+[\d.]+ ms \([\d.]+% of the time; \d+ changes\)/,
      /^dashboard page\s+the page's main thread busy, 20 sessions, 50 changes\/s for 1 s\s+[\d.]+ ms \([\d.]+% of the time; style and layout [\d.]+ ms\)/,
      /^dashboard page\s+the last change shown, after it was answered\s+[\d.]+ ms/,
      /^hostile body \(median\)\s+1 MiB \[\[\[\[…\]\]\]\]: answer \/ longest \/healthz\s+[\d.]+ ms \/ [\d.]+ ms, peak \+\d+ MB/,
      /^permission rules\s+100 rules, none matching: p50 \/ p99, one at a time\s+[\d.]+ ms \/ [\d.]+ ms \(p99 [\d.]+-[\d.]+ ms over 2 rounds; hub CPU \d+ µs an event\) p99 within no rule's noise/,
      /^permission rules\s+100, the last matching \(ALLOW\): 16 connections\s+[\d,]+ events\/s .*hub CPU \d+ µs an event/,
      /^permission rules\s+Policy.decide alone, CPU a call \(median of 5\)\s+no rule [\d.]+ µs, 100 none matching [\d.]+ µs/,
      /^replay\s+after: 0 over 2,000 events\s+[\d.]+ ms/,
      /^a turn's changes\s+Bash PostToolUse answer, no checkout \(no snapshot\): p50 \/ p99 \/ max\s+[\d.]+/,
      /^a turn's changes\s+Turn.changes, 10 files by 5 calls, .*: p50 \/ p99 \/ max of \d+\s+[\d.]+/,
      /^per event \(median\)\s+python3 \+ urllib forwarder .*x HTTP\)/,
      /^session start \(median\)\s+createSession, to SessionStart .*% overhead/,
      /^TMUX vs HEADLESS \(median\)\s+HEADLESS: createSession, to SessionStart\s+[\d.]+ ms \([+-]/,
      /^TMUX vs HEADLESS \(median\)\s+TMUX: a turn by hand\s+[\d.]+ ms/,
      /^TMUX vs HEADLESS \(median\)\s+HEADLESS: a turn through the hub\s+[\d.]+ ms \([+-][\d.]+ ms, [+-]\d+%\)/,
      /^hub memory \(RSS\)\s+2 sessions \+ 5,000 events, once V8 collected\s+\d+ MB, not collected within 0 s/,
      /^hub memory \(RSS\)\s+peak over the run \(VmHWM\)\s+\d+ MB/,
      /^graphql-ws server A\/B\s+hub, round 1: 100 sub x 1 session p50 \/ p99/,
      /^graphql-ws server A\/B\s+library, round 1: replay after: 0 over 2,000 events\s+[\d.]+ ms/,
      /^hub back \(median\)\s+another port, old one taken: relaunch\s+IDLE [\d.]+ s, turn [\d.]+ s/,
      /^hub back \(median\)\s+HEADLESS: claude ended with the hub, resumed\s+IDLE [\d.]+ s, turn [\d.]+ s/,
      /^hubs ran with node --max-semi-space-size=8$/,
      /^hubs ran with --graphql-ws-server=hub$/,
    ]) {
      expect(
        lines.some((line) => measure.test(line)),
        String(measure),
      ).toBe(true);
    }
  }, 480_000);
});
