import { execFileSync } from 'node:child_process';

/**
 * The pid of a process that has exited and that its parent never reaps, for about 3 s: a zombie.
 * `sleep 0.1` ends under a shell that exec'd a `sleep 3`, which never waits for it.
 */
export async function zombie(): Promise<number> {
  const out = execFileSync(
    'sh',
    ['-c', "sh -c 'sleep 0.1 & echo $!; exec sleep 3 >/dev/null 2>&1' &"],
    { encoding: 'utf8' },
  );
  await new Promise((resolve) => setTimeout(resolve, 600));
  return Number(out.trim().split('\n')[0]);
}
