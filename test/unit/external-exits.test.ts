import { describe, expect, it } from 'vitest';
import { ExternalRuntime } from '../../src/runtime/external-runtime.js';
import type { RuntimeSession } from '../../src/runtime/session-runtime.js';
import { zombie } from '../helpers/zombie.js';

const session = (id: string, pid: number | null, ended = false): RuntimeSession => ({
  id,
  cwd: '/srv',
  runtime: 'EXTERNAL' as RuntimeSession['runtime'],
  tmuxSession: '',
  claudeSessionId: id,
  origin: 'EXTERNAL' as RuntimeSession['origin'],
  pane: null,
  pid,
  ended,
});

describe("an external claude's exit", () => {
  it('is seen at once when its process is gone, and within ten checks when it is a zombie, a tenth of the zombies at each', async () => {
    const runtime = new ExternalRuntime({ pasteSettleMs: 0, stopTimeoutMs: 0 });
    const dead = await zombie();
    const zombies = Array.from({ length: 20 }, (_, i) => session(`z${i}`, dead));
    const others = [
      session('running', process.pid),
      session('gone', 2 ** 22 + 1),
      session('no pid, ended', null, true),
      session('no pid', null),
    ];
    const found: string[][] = [];
    for (let check = 0; check < 10; check++) {
      const exits = await runtime.exits([...zombies, ...others]);
      found.push(exits.map(({ record }) => record.id));
    }
    for (const ids of found) {
      expect(ids.filter((id) => !id.startsWith('z'))).toEqual(['gone', 'no pid, ended']);
      expect(ids.filter((id) => id.startsWith('z'))).toHaveLength(2);
    }
    expect(new Set(found.flat().filter((id) => id.startsWith('z')))).toEqual(
      new Set(zombies.map(({ id }) => id)),
    );
  });
});
