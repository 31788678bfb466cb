/**
 * The layers of src/, lowest first, and the checks that hold the code to them: no import circle
 * between files or between folders, and no folder (or file at the top of src/) importing one
 * of its own layer or above. Type-only and dynamic imports count: a type-only import closes a
 * circle for a reader as much as any other. docs/architecture.md's layer list is written from
 * here (npm run schema) and test/unit/architecture.test.ts runs the checks.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface Layer {
  readonly name: string;
  /** Folders of src/ (a name) and files at its top (a name ending in .ts), with what each holds. */
  readonly units: Readonly<Record<string, string>>;
}

/** Lowest first: a unit imports only units of the layers before its own. */
export const layers: readonly Layer[] = [
  {
    name: 'base',
    units: {
      'clock.ts': 'the clock every wait and timestamp reads (a fake one in tests)',
      'errors.ts': 'the one error class, its stable codes and their HTTP status',
      'log.ts': 'the pino logger',
      'loop-delay.ts': "the event loop's delay, for /metrics",
      'spawn-time.ts': 'how long each subprocess start held the loop, for /metrics',
      'periodic.ts': 'the work the hub does on a timer, timed',
    },
  },
  {
    name: 'facts',
    units: {
      events: 'the hook event registry, the event log and bus ports, topics and bounded queues',
      config: 'the options: their table, parsing and checks, --help',
      gql: 'codegen output for every client (npm run codegen)',
    },
  },
  {
    name: 'parts',
    units: {
      store:
        'SQLite: migrations, the event log, records by id, retention, the writes of a turn of the loop in one commit',
      http: 'HTTP primitives: bodies, bounded JSON nesting, page headers, static files, GraphiQL',
      runtime:
        "SessionRuntime: tmux (driver, panes, claude's screen), headless (stream-json), a person's pane",
      claude: 'the claude CLI: its version against the tested range, the hook events it supports',
      runs: "turns and actions folded from a session's events, a turn's usage",
      channels: 'named outputs, their listeners and their log, replay from `after`',
      git: "a session's git worktree: made on a branch of its own, removed with it when nothing is lost; snapshots of a work tree as trees",
    },
  },
  {
    name: 'services',
    units: {
      permissions: 'held PermissionRequest hooks and their decisions',
      costs:
        "what turns cost: the price table (shipped, or --prices), each turn's tokens per model, the ledger Query.usage groups",
      terminal: "a session's terminal for the API: control-mode clients, snapshots, viewers",
      auth: 'tokens and scopes, the access gate, the operation limits, useHubSecurity',
    },
  },
  {
    name: 'edges',
    units: {
      audit: 'the audit trail in the store, refused mutations included',
      changes:
        "what a session's turns changed: work tree snapshots at its hooks, each file's diff, the calls that changed it and who allowed each",
      mcp: "the hub's MCP server at /mcp and its tools",
      subscriptions:
        "a session's events (replay, then live) over graphql-ws, SSE and plain SSE; shared results",
    },
  },
  {
    name: 'sessions',
    units: {
      sessions:
        'the lifecycle (a table of moves), its parts (index, intake, hook routing, launch, supervision, re-adoption, permission outcomes), messages, dialogs, attention',
      'metrics.ts': 'the Prometheus metrics',
    },
  },
  {
    name: 'hub',
    units: {
      hub: "the Hub the schema calls: this node (LocalHub), the attention queue it publishes, the MCP tools' work",
      hooks: "the global hooks: their install into a user's or a project's settings",
      ingest: 'POST /hooks, and listeners on earlier hook addresses',
    },
  },
  {
    name: 'schedules',
    units: {
      schedules:
        'scheduled prompts: cron lines and time zones checked, the scheduler on the clock, who fires a tick',
    },
  },
  {
    name: 'surfaces',
    units: {
      cluster: 'the Hub over Redis: leases, shared records, event streams, calls to the owner node',
      schema: 'Pothos types and resolvers; each field declares its scope',
      cli: 'the client commands of the bin, on the typed operations; doctor',
    },
  },
  {
    name: 'server',
    units: {
      server:
        "the app: construction, each part's options from the config, the start order in steps, yoga, the routes",
    },
  },
  { name: 'entry', units: { 'main.ts': 'the bin: serve, or a client command' } },
];

/** File -> the files of src/ it imports (resolved to .ts paths relative to the repo). */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** The imports of every .ts file under `srcDir`, as the TypeScript compiler reads them. */
export function importGraph(srcDir: string): ImportGraph {
  const graph = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.tsx?$/.test(name)) graph.set(file, importsOf(file));
    }
  };
  walk(srcDir);
  return graph;
}

function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => path.join(path.dirname(file), name).replace(/\.js$/, '.ts'));
}

/** The unit of src/ a file belongs to: its top folder, or its own name at the top. */
export function unitOf(srcDir: string, file: string): string {
  return path.relative(srcDir, file).split(path.sep)[0]!;
}

/** Every set of nodes that import each other, round (Tarjan's strongly connected components). */
export function circles(edges: ReadonlyMap<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!edges.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      circle.push(member);
    } while (member !== node);
    if (circle.length > 1) found.push(circle.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** Unit -> the other units its files import. */
export function unitGraph(srcDir: string, graph: ImportGraph): Map<string, Set<string>> {
  const units = new Map<string, Set<string>>();
  for (const [file, imports] of graph) {
    const from = unitOf(srcDir, file);
    const to = units.get(from) ?? new Set<string>();
    units.set(from, to);
    for (const target of imports) {
      const unit = unitOf(srcDir, target);
      if (unit !== from) to.add(unit);
    }
  }
  return units;
}

/**
 * What breaks the declared order: a unit no layer names, and each import of a unit of the same
 * layer or above, as `from -> to (file)`.
 */
export function orderViolations(
  srcDir: string,
  graph: ImportGraph,
  declared: readonly Layer[] = layers,
): string[] {
  const level = new Map<string, number>();
  declared.forEach((layer, i) => {
    for (const unit of Object.keys(layer.units)) level.set(unit, i);
  });
  const found = new Set<string>();
  for (const [file, imports] of graph) {
    const from = unitOf(srcDir, file);
    if (!level.has(from)) {
      found.add(`${from} is in no layer: add it to scripts/architecture.ts`);
      continue;
    }
    for (const target of imports) {
      const to = unitOf(srcDir, target);
      if (to === from || !level.has(to)) continue;
      if (level.get(to)! >= level.get(from)!) {
        found.add(`${from} -> ${to} (${path.relative(srcDir, file)})`);
      }
    }
  }
  return [...found].sort();
}

/** The layer list of docs/architecture.md, highest first. */
export function layersDocs(declared: readonly Layer[] = layers): string {
  const name = (unit: string) => `\`${unit.endsWith('.ts') ? unit : `${unit}/`}\``;
  const rows = [...declared]
    .reverse()
    .flatMap(({ name: layer, units }) =>
      Object.entries(units).map(
        ([unit, holds], i) => `| ${i === 0 ? layer : ''} | ${name(unit)} | ${holds} |`,
      ),
    );
  return [
    'Highest first; each imports only from the layers below it (`scripts/architecture.ts`,',
    'checked by `test/unit/architecture.test.ts`, which also fails on any import circle between',
    'files or folders).',
    '',
    '| layer | in `src/` | what it holds |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
