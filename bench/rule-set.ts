/**
 * What the `rules` section tries: Bash calls as claude makes them in a project, and 100 rules
 * of the kinds a team writes (tools globs, globs and regexes on `command` and `file_path`,
 * cwdUnder, labels; ALLOW, DENY and ASK) of which none matches those calls, so that each call
 * tries every one; and, for the last place, an ALLOW rule that matches every one of them.
 */
import type { RuleInput } from '../src/permissions/rule.js';

/** The session's folder, as its SessionStart says. */
export const projectDir = '/home/dev/project';

/** Commands of 20 to 200 characters, some of several commands (`&&`, `|`). */
export const commands: readonly string[] = [
  'git status --short --branch',
  'git diff --stat HEAD~1 -- src/permissions',
  'git log --oneline -20 -- src/sessions/policy-gate.ts',
  'ls -la src/permissions test/unit',
  'cat package.json tsconfig.json',
  'npm test -- test/unit/rule-match.test.ts',
  'npx tsc --noEmit -p tsconfig.json',
  'npx vitest run test/unit/permission-rules.test.ts --reporter=dot',
  'grep -rn "PolicyGate" src --include=*.ts | head -20',
  'rg -n "decidedBy" src/permissions src/schema | wc -l',
  'find src -name "*.ts" -newer package.json | sort | head -50',
  'cd packages/web && npm ci && npm run build',
  'npm run lint && npm run typecheck && npm test -- --run',
  'mkdir -p build/reports && npx vitest run --coverage --outputFile=build/reports/coverage.json',
  'sed -n 1,120p src/permissions/rule-match.ts',
  'tail -n 200 logs/hub.log | grep -i error',
  'node scripts/architecture.ts && npx prettier --check src test bench',
  'jq ".scripts" package.json',
  'git add src/permissions/rule-book.ts test/unit/rule-book.test.ts && git commit -m "Rule book: file rules after API rules"',
  'python3 -m json.tool bench/results/latest.json | head -40',
  'diff -u schema.graphql build/schema.graphql | head -100',
  `cd ${projectDir}/examples && npm install --no-audit --no-fund && node dashboard.js --port 0`,
  'echo "checking the build" && npm run build && ls -la dist',
  'make -C native clean all && cp native/build/libhub.so dist/',
  'wc -l src/*/*.ts | sort -n | tail -20',
  'cat docs/permission-rules.md docs/api.md | grep -n "decidedBy" | head',
  'npx tsx scripts/schema.ts && git diff --exit-code schema.graphql',
  'git fetch origin main && git rebase origin/main',
  'touch .env.example && cp .env.example .env.test',
  'npm run build && node dist/main.js --port 0 --data-dir /tmp/hub-data --policy-file policies/team.json --retain-events 100000 --log-level debug | tee /tmp/hub.log | grep -m1 listening',
];

/** The programs the commands above run: the matching ALLOW rule names them. */
const programs =
  'git|npm|npx|node|ls|cat|grep|rg|find|sort|head|tail|wc|cd|mkdir|sed|jq|python3|diff|echo|make|cp|touch|tee';

type Decision = RuleInput['decision'];
const decisions: readonly Decision[] = ['DENY', 'ASK', 'ALLOW'];
const bash = ['Bash'];

/** Tools a Bash call is not. */
const otherTools = [
  ['Write'],
  ['Edit', 'MultiEdit'],
  ['mcp__*'],
  ['mcp__github__*'],
  ['Web*'],
  ['Notebook*'],
  ['Task'],
  ['Glob', 'Grep'],
  ['Read'],
  ['TodoWrite'],
];

/** Command globs no call above matches (a glob matches the whole value). */
const commandGlobs = [
  'rm -rf /*',
  'rm -rf ~*',
  'sudo *',
  'curl * | sh',
  'curl * | bash',
  'wget *',
  'git push --force*',
  'git push -f*',
  'git push origin main*',
  'git reset --hard*',
  'git clean -fd*',
  'git branch -D *',
  'docker run --privileged*',
  'docker system prune*',
  'chmod 777 *',
  'chmod -R *',
  'chown -R *',
  'dd if=*',
  'mkfs*',
  'npm publish*',
  'npm unpublish*',
  'terraform apply*',
  'terraform destroy*',
  'kubectl delete *',
  'kubectl apply -f *prod*',
  'shutdown*',
  'ssh *',
  'scp *',
  'aws s3 rm *',
  'gcloud * delete*',
];

/** Command regexes no call above matches (a regex is searched: anchored where it must be). */
const commandRegexes = [
  '/\\brm\\s+-[a-z]*r[a-z]*f?\\s+\\//',
  '/\\bsudo\\b/',
  '/^curl\\b.*\\|\\s*(ba)?sh\\b/',
  '/--no-verify\\b/',
  '/\\bgit\\s+push\\b.*--force/',
  '/\\bDROP\\s+(TABLE|DATABASE)\\b/i',
  '/\\beval\\s/',
  '/\\bnc\\s+-l/',
  '/\\/etc\\/(passwd|shadow|sudoers)/',
  '/\\bchown\\s+-R\\s+root\\b/',
  '/\\bkill\\s+-9\\s+1\\b/',
  '/>\\s*\\/dev\\/sd[a-z]/',
  '/\\bhistory\\s+-c\\b/',
  '/\\bcrontab\\s+-r\\b/',
  '/\\b(npm|yarn|pnpm)\\s+(publish|unpublish)\\b/',
  '/\\bdocker\\s+(rm|rmi)\\s+-f\\b/',
  '/\\bgit\\s+filter-(branch|repo)\\b/',
  '/^\\s*:\\(\\)\\s*\\{/',
  '/\\bbase64\\s+-d\\b.*\\|/',
  '/\\bAWS_SECRET_ACCESS_KEY=/',
];

/** file_path globs: a Bash call has no file_path, so these are tried and miss. */
const pathGlobs = ['**/.env*', '**/*.pem', '/etc/**', '**/secrets/**', '**/.git/config'];

/**
 * 100 rules, none of which matches a call above: 99 at priority 0 and the 100th, the ALLOW
 * that misses, at -1, so it is tried last (with `lastMatching`, the one that matches instead).
 * Each is named; all are created disabled, and the section enables the case it measures.
 */
export function ruleSet(): {
  missing: RuleInput[];
  lastMissing: RuleInput;
  lastMatching: RuleInput;
} {
  const missing: RuleInput[] = [];
  const add = (match: NonNullable<RuleInput['match']>) => {
    const decision = decisions[missing.length % decisions.length]!;
    missing.push({
      name: `bench ${missing.length + 1}`,
      enabled: false,
      decision,
      ...(decision === 'DENY' && { message: 'not in this project' }),
      match,
    });
  };
  for (const tools of otherTools) add({ tools });
  for (const pattern of commandGlobs) add({ tools: bash, input: [{ path: 'command', pattern }] });
  for (const pattern of commandRegexes) add({ tools: bash, input: [{ path: 'command', pattern }] });
  for (const pattern of pathGlobs) add({ input: [{ path: 'file_path', pattern }] });
  for (const pattern of pathGlobs)
    add({ tools: ['Read', 'Write', 'Edit'], input: [{ path: 'file_path', pattern }] });
  // Folders the session is not under, and one it is under with commands it does not run.
  for (const dir of ['/srv', '/etc', '/var/www', '/home/ops', '/opt/deploy'])
    add({ cwdUnder: [dir], tools: bash, input: [{ path: 'command', pattern: '*' }] });
  for (const pattern of commandGlobs.slice(0, 10))
    add({ cwdUnder: [projectDir], tools: bash, input: [{ path: 'command', pattern }] });
  // Labels the session does not have.
  for (const labels of [['prod'], ['ci', 'release'], ['untrusted'], ['customer-data'], ['oncall']])
    add({ labels, tools: bash });
  for (const pattern of commandRegexes.slice(0, 9))
    add({ labels: ['sandbox'], input: [{ path: 'command', pattern }] });
  if (missing.length !== 99) throw new Error(`the rule set has ${missing.length} rules, not 99`);
  const last = (name: string, pattern: string): RuleInput => ({
    name,
    enabled: false,
    priority: -1,
    decision: 'ALLOW',
    match: { tools: bash, cwdUnder: [projectDir], input: [{ path: 'command', pattern }] },
  });
  return {
    missing,
    lastMissing: last('bench last missing', '/^(deploy|release)\\s/'),
    lastMatching: last('bench last matching', `/^(${programs})(\\s|$)/`),
  };
}

/** A PreToolUse of a Bash call as claude posts it: the `i`th, or one running `command`. */
export function preToolUse(
  sessionId: string,
  i: number,
  command = commands[i % commands.length]!,
): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: `/home/dev/.claude/projects/-home-dev-project/${sessionId}.jsonl`,
    cwd: projectDir,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'Run a project command' },
    tool_use_id: `toolu_bench_${i}`,
  });
}
