import {
  SessionOrigin,
  type Exit,
  type LaunchSpec,
  type Presence,
  type RuntimeKind,
  type RuntimeSession,
  type ScreenState,
  type SessionRuntime,
} from './session-runtime.js';
import type { InputMode } from './prompt-input.js';
import type { Pane } from './tmux-pane.js';

/** What drives a session: its runtime, or EXTERNAL for a claude a person started. */
type Driver = RuntimeKind | typeof SessionOrigin.External;

function driverOf(record: RuntimeSession): Driver {
  return record.origin === SessionOrigin.External ? SessionOrigin.External : record.runtime;
}

/**
 * The runtimes a hub runs sessions with, each session on the one its record names; a session a
 * person started is driven by the EXTERNAL one, whatever it runs in.
 */
export class RuntimeSet implements SessionRuntime {
  readonly #runtimes: Readonly<Record<Driver, SessionRuntime>>;

  constructor(runtimes: Readonly<Record<Driver, SessionRuntime>>) {
    this.#runtimes = runtimes;
  }

  /** The keys of the terminal runtime; a headless session refuses every key. */
  get keyNames(): readonly string[] {
    return this.#runtimes.TMUX.keyNames;
  }

  launch(spec: LaunchSpec): Promise<void> {
    return this.#of(spec.record).launch(spec);
  }

  async presence(records: readonly RuntimeSession[]): Promise<Map<string, Presence>> {
    const found = await Promise.all(
      this.#split(records).map(([runtime, own]) => runtime.presence(own)),
    );
    return new Map(found.flatMap((map) => [...map]));
  }

  async exits<S extends RuntimeSession>(records: readonly S[]): Promise<Exit<S>[]> {
    const found = await Promise.all(
      this.#split(records).map(([runtime, own]) => runtime.exits(own)),
    );
    return found.flat();
  }

  screen(record: RuntimeSession): Promise<string> {
    return this.#of(record).screen(record);
  }

  look(record: RuntimeSession): Promise<ScreenState> {
    return this.#of(record).look(record);
  }

  lastTyped(record: RuntimeSession): Promise<number | null> {
    return this.#of(record).lastTyped(record);
  }

  waitForInput(record: RuntimeSession, timeoutMs: number, running: () => boolean): Promise<void> {
    return this.#of(record).waitForInput(record, timeoutMs, running);
  }

  type(record: RuntimeSession, text: string, mode: InputMode): Promise<void> {
    return this.#of(record).type(record, text, mode);
  }

  keys(record: RuntimeSession, names: readonly string[]): Promise<void> {
    return this.#of(record).keys(record, names);
  }

  interrupt(record: RuntimeSession, timeoutMs: number): Promise<boolean> {
    return this.#of(record).interrupt(record, timeoutMs);
  }

  stop(record: RuntimeSession): Promise<void> {
    return this.#of(record).stop(record);
  }

  pane(record: RuntimeSession): Pane {
    return this.#of(record).pane(record);
  }

  attachCommand(record: RuntimeSession): string | null {
    return this.#of(record).attachCommand(record);
  }

  #of(record: RuntimeSession): SessionRuntime {
    return this.#runtimes[driverOf(record)];
  }

  /** Each runtime that has records among these, with its own, in the order given. */
  #split<S extends RuntimeSession>(records: readonly S[]): [SessionRuntime, S[]][] {
    return Object.entries(this.#runtimes).flatMap(([kind, runtime]) => {
      const own = records.filter((record) => driverOf(record) === kind);
      return own.length > 0 ? [[runtime, own] as [SessionRuntime, S[]]] : [];
    });
  }
}
