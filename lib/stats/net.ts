// The club's net (SPEC rule 6, DESIGN.md section 10), written once: the stats breakdown and
// every event's net_cents use it.

/** What reaches the club: gross minus payment-provider fees minus platform commission (cents). */
export function netCents(m: { gross: number; fees: number; commission: number }): number {
  return m.gross - m.fees - m.commission;
}
