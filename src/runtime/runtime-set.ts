import type {
  Exit,
  LaunchSpec,
  Presence,
  RuntimeKind,
  RuntimeSession,
  ScreenState,
  SessionRuntime,
} from './session-runtime.js';

/** The runtimes a hub runs sessions with, each session on the one its record names. */
export class RuntimeSet implements SessionRuntime {
  readonly #runtimes: Readonly<Record<RuntimeKind, SessionRuntime>>;

  constructor(runtimes: Readonly<Record<RuntimeKind, SessionRuntime>>) {
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

  waitForInput(record: RuntimeSession, timeoutMs: number, running: () => boolean): Promise<void> {
    return this.#of(record).waitForInput(record, timeoutMs, running);
  }

  type(record: RuntimeSession, text: string): Promise<void> {
    return this.#of(record).type(record, text);
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

  attachCommand(record: RuntimeSession): string | null {
    return this.#of(record).attachCommand(record);
  }

  #of(record: RuntimeSession): SessionRuntime {
    return this.#runtimes[record.runtime];
  }

  /** Each runtime that has records among these, with its own, in the order given. */
  #split<S extends RuntimeSession>(records: readonly S[]): [SessionRuntime, S[]][] {
    return Object.entries(this.#runtimes).flatMap(([kind, runtime]) => {
      const own = records.filter((record) => record.runtime === kind);
      return own.length > 0 ? [[runtime, own] as [SessionRuntime, S[]]] : [];
    });
  }
}
