import type {
  Exit,
  LaunchSpec,
  Presence,
  RuntimeSession,
  ScreenState,
  SessionRuntime,
} from '../../src/runtime/session-runtime.js';
import type { Pane } from '../../src/runtime/tmux-pane.js';
import { hookSecretEnv } from '../../src/sessions/hook-settings.js';
import type { HookAddress } from '../../src/sessions/hook-urls.js';

/** A runtime of plain data: what it was asked to do, and what the test says it shows. */
export class FakeRuntime implements SessionRuntime {
  readonly keyNames = ['Enter', 'Escape'];
  readonly launches: LaunchSpec[] = [];
  readonly typed: string[] = [];
  readonly pressed: string[][] = [];
  readonly stopped: string[] = [];
  /** Session ids whose claude runs. */
  readonly running = new Set<string>();
  readonly presences = new Map<string, Presence>();
  readonly exited: Exit[] = [];
  screenState: ScreenState = { dialog: null, inputText: '', turnRunning: false };
  /** Session ids, one per look at a screen. */
  readonly looked: string[] = [];

  async launch(spec: LaunchSpec): Promise<void> {
    this.launches.push(spec);
    this.running.add(spec.record.id);
  }
  async presence(records: readonly RuntimeSession[]): Promise<Map<string, Presence>> {
    return new Map(records.map((r) => [r.id, this.presences.get(r.id) ?? { kind: 'gone' }]));
  }
  async exits<S extends RuntimeSession>(records: readonly S[]): Promise<Exit<S>[]> {
    const byId = new Map(records.map((record) => [record.id, record]));
    return this.exited.splice(0).flatMap((exit) => {
      const record = byId.get(exit.record.id);
      return record ? [{ ...exit, record }] : [];
    });
  }
  async screen(): Promise<string> {
    return 'the screen';
  }
  async look(record: RuntimeSession): Promise<ScreenState> {
    this.looked.push(record.id);
    return this.screenState;
  }
  async lastTyped(): Promise<null> {
    return null;
  }
  async waitForInput(): Promise<void> {}
  async type(_record: RuntimeSession, text: string): Promise<void> {
    this.typed.push(text);
  }
  async keys(_record: RuntimeSession, names: readonly string[]): Promise<void> {
    this.pressed.push([...names]);
  }
  async interrupt(): Promise<boolean> {
    return true;
  }
  async stop(record: RuntimeSession): Promise<void> {
    this.stopped.push(record.id);
    this.running.delete(record.id);
  }
  readonly focused: [string, string | null][] = [];
  attachCommand(record: RuntimeSession): string {
    return `attach ${record.tmuxSession}`;
  }
  /** A pane that only knows how to take a client there. */
  pane(record: RuntimeSession): Pane {
    return {
      focus: async (client: string | null) => {
        this.focused.push([record.id, client]);
        return client ?? 'client-1';
      },
    } as Pane;
  }
  /** The claude of a session exits, as its runtime will report on the next poll. */
  exit(record: RuntimeSession, how = ' with status 1'): void {
    this.running.delete(record.id);
    this.exited.push({ record, how, screen: 'last words' });
  }
  /** The hook secret the latest launch of a session got. */
  secret(id: string): string {
    const spec = this.launches.findLast((launch) => launch.record.id === id);
    return spec!.env[hookSecretEnv]!;
  }
}

/** Where the hub listens for hooks, as the sessions see it; earlier URLs other than `url` fail. */
export const hooksAt = (url: string, unreachable: string | null = null): HookAddress => ({
  url,
  reclaim: async (other) => (other === url ? null : unreachable),
  release: async () => undefined,
  reclaimed: [],
});
