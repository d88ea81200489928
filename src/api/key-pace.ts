/**
 * The pace a key keeps with its other runs on the host, through a ledger (core/pace-slot.ts, shared between
 * processes by state/pace-ledger.ts): a turn taken there only when a request is due, and what the service
 * said told there, only when it is new.
 */
import type { PaceLedger, SharedTurn, TurnRequest } from "../core/pace-slot";

export class KeyPace {
  /** What the ledger was last told of the service (so it is told only what is new). */
  private toldFloor = 0;
  private toldHold = 0;

  constructor(private readonly ledger: PaceLedger) {}

  /** The key's turn for a request due now (the ledger also learns what `request` says of the service). */
  take(request: TurnRequest): Promise<SharedTurn> {
    this.told(request);
    return this.ledger.take(request);
  }

  /** Tells the key's other runs what the service said, when it is new; undefined when it is not. */
  share(request: TurnRequest): Promise<void> | undefined {
    if (request.floor <= this.toldFloor && request.hold <= this.toldHold) return undefined;
    this.told(request);
    return this.ledger.share(request);
  }

  private told(request: TurnRequest): void {
    this.toldFloor = Math.max(this.toldFloor, request.floor);
    this.toldHold = Math.max(this.toldHold, request.hold);
  }
}
