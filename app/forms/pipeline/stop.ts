import type { FormOutcome } from "./definition";

/** A step's answer that ends the run (./run.server.ts returns its outcome). */
export class Stop {
  constructor(readonly outcome: FormOutcome) {}
}

export function stop(outcome: FormOutcome): never {
  throw new Stop(outcome);
}
