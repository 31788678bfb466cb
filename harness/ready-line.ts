import { execa, type ResultPromise } from 'execa';

/**
 * The first line a child process prints on stdout, newline included: the ready line of a hub,
 * or the URL of the Anthropic stand-in run as a process. Rejects if the child exits first.
 */
export function firstLine(child: ResultPromise): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out);
    });
    child.once('exit', () =>
      reject(new Error(`exited before its first line; stdout: ${JSON.stringify(out)}`)),
    );
  });
}

/**
 * A TypeScript file of the repository run by node as a process of its own; resolves with the
 * process and its first line (its ready line). `name` says what failed to start.
 */
export async function startScript(
  script: string,
  name: string,
): Promise<{ child: ResultPromise; line: string }> {
  const child = execa('node', ['--import', 'tsx', script], {
    cwd: new URL('..', import.meta.url).pathname,
    reject: false,
  });
  const line = await firstLine(child).catch((error: Error) => {
    throw new Error(`${name} ${error.message}`);
  });
  return { child, line };
}
