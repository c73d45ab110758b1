// A member's registration awaiting payment is invoiced once, however many clicks of "Invoice" come
// at once: the look for its open invoice and the making of one hold the registration's row lock,
// so on PostgreSQL, where the clicks run side by side on several connections of the pool (as two
// processes would), the later ones find the first's invoice instead of making another.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { invoices } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import type { Ctx } from "../../lib/context";
import { invoiceRegistration } from "../../lib/invoices";
import { createEventVia, insertMember, insertRegistration } from "../events-fixtures";
import { onPostgres } from "../databases";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
let ctx: Ctx;
beforeAll(async () => {
  env = await setup();
  ctx = await operatorCtx(env.db, env.clubId, env.config);
});
afterAll(() => env.close());

describe("invoicing a registration", () => {
  it("makes one open invoice per registration for eight clicks at once on each, every click answered with it", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Souper", member_price_cents: 3000 }] });
    const regs = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const member = await insertMember(env);
        return insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id, memberId: member.id, status: "pending", amount: 3000 });
      }),
    );
    // The pool's connections opened beforehand, so the clicks run side by side from the start.
    if (onPostgres)
      await Promise.all(
        Array.from({ length: 16 }, () => (env.db.read as unknown as { execute(q: unknown): Promise<unknown> }).execute(sql`select pg_sleep(0.05)`)),
      );
    const clicks = regs.flatMap((reg) => Array.from({ length: 8 }, () => invoiceRegistration(ctx, { event_id: event.id, registration_id: reg.id })));
    const answers = await Promise.all(clicks);
    const made = await env.db.read
      .select()
      .from(invoices)
      .where(
        and(
          eq(invoices.club_id, env.clubId),
          inArray(
            invoices.registration_id,
            regs.map((r) => r.id),
          ),
        ),
      );
    expect(made.map((i) => [i.kind, i.status, i.amount_cents])).toEqual(regs.map(() => ["event", "open", 3000]));
    expect(new Set(answers.map((a) => a.id))).toEqual(new Set(made.map((i) => i.id)));
  });
});
