import type { ResultPromise } from 'execa';

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
