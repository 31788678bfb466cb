/** Work the hub does on a timer, not for a request. */
export type PeriodicTask = 'session_check' | 'pane_listing' | 'retention';
/** Runs the work and records how long it took. */
export type Timed = <T>(task: PeriodicTask, work: () => Promise<T> | T) => Promise<T>;
/** Runs the work, recording nothing (where no metrics are kept). */
export const untimed: Timed = async (_task, work) => work();
