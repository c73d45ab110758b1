// Days as the product stores them (`YYYY-MM-DD`, UTC): today, and a day some days on. Below every
// area that reckons with days (members, invoices), so that neither borrows them from the other.

export const todayUtc = (now = new Date()): string => now.toISOString().slice(0, 10);

export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
