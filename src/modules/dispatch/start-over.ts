// Starting a transaction over when the tours it locked turned out not to be all it needs. Writers lock tours before
// bookings (so none deadlocks); a stop moved into another tour between reading its tour and locking its booking
// would leave that tour unlocked, so the transaction gives up its locks and runs again.

/** Thrown inside a transaction when a stop it locked a booking for sits on a tour the transaction does not hold. */
export class ToursChangedMeanwhile extends Error {}

/** Starts over this often; each start needs a concurrent dispatch of the same stops in a window of microseconds. */
const RUNS = 5;

export async function startingOverWhenToursChanged<T>(attempt: () => Promise<T>): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof ToursChangedMeanwhile) || run === RUNS) throw err;
    }
  }
}
