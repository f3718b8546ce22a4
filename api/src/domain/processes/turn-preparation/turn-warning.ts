/** Something a turn left out, and why; the turn goes on (seed 000 §5a: skipped with WARN). */
export interface TurnWarning {
  readonly skill: string;
  readonly message: string;
}
