import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  circles,
  importGraph,
  layers,
  orderViolations,
  unitGraph,
  type ImportGraph,
  type Layer,
} from '../../scripts/architecture.js';

const srcDir = path.relative(process.cwd(), new URL('../../src', import.meta.url).pathname);
const graph = importGraph(srcDir);

/** A made-up src/ for the checks themselves: a circle and an import against the order. */
const made: ImportGraph = new Map([
  ['src/a/one.ts', ['src/a/two.ts']],
  ['src/a/two.ts', ['src/a/one.ts', 'src/b/three.ts']],
  ['src/b/three.ts', ['src/a/one.ts']],
  ['src/c.ts', []],
]);

describe('the structure of src/', () => {
  it('reads every file and its imports, type-only ones included', () => {
    expect(graph.size).toBeGreaterThan(100);
    const manager = graph.get(path.join(srcDir, 'sessions/session-manager.ts'));
    expect(manager).toContain(path.join(srcDir, 'sessions/session-lifecycle.ts'));
    expect(manager).toContain(path.join(srcDir, 'events/event-bus.ts')); // `import type`
  });

  it('has no import circle between files', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('has no import circle between folders', () => {
    expect(circles(unitGraph(srcDir, graph))).toEqual([]);
  });

  it('has every folder in a layer, importing only from the layers below it', () => {
    expect(orderViolations(srcDir, graph)).toEqual([]);
  });

  it('declares each folder once, and no folder that is gone', () => {
    const declared = layers.flatMap((layer) => Object.keys(layer.units));
    expect(new Set(declared).size).toBe(declared.length);
    expect(
      [
        ...new Set([...graph.keys()].map((file) => path.relative(srcDir, file).split(path.sep)[0])),
      ].sort(),
    ).toEqual([...declared].sort());
  });

  it('finds a circle and an import against the order when there is one', () => {
    expect(circles(made)).toEqual([['src/a/one.ts', 'src/a/two.ts', 'src/b/three.ts']]);
    expect(circles(unitGraph('src', made))).toEqual([['a', 'b']]);
    const order: Layer[] = [
      { name: 'low', units: { a: '', 'c.ts': '' } },
      { name: 'high', units: { b: '' } },
    ];
    expect(orderViolations('src', made, order)).toEqual(['a -> b (a/two.ts)']);
    expect(orderViolations('src', made, [{ name: 'only', units: { a: '' } }])).toEqual([
      'b is in no layer: add it to scripts/architecture.ts',
      'c.ts is in no layer: add it to scripts/architecture.ts',
    ]);
  });
});

describe('the structure of the rest', () => {
  it.each(['dashboard/src', 'harness', 'bench', 'scripts', 'test'])(
    'has no import circle between the files of %s',
    (dir) => {
      const files = importGraph(dir);
      expect(files.size).toBeGreaterThan(1);
      expect(circles(files)).toEqual([]);
    },
  );
});
