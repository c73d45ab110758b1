// `seed demo --club C`: demo tiers, members, an event with registrations and a promo code in an
// empty club (lib/demo.ts), to try the API, the docs page or an assistant on data that looks real.
import { operatorCtx } from "../../../lib/auth/operator";
import { findClubByRef } from "../../../lib/clubs/internal";
import { seedDemo } from "../../../lib/demo";
import { command, requireFlag } from "../command";

export const commands = [
  command({
    words: ["seed", "demo"],
    summary: "Fill an empty club with demo tiers, members, an event with registrations and a promo code.",
    flags: { club: { type: "string", required: true, placeholder: "C", description: "the club's id or slug" } },
    args: [],
    async run(env, { flags }) {
      const db = await env.db();
      const club = await findClubByRef(db, requireFlag(flags.club, "club"));
      return seedDemo(await operatorCtx(db, club.id, env.config));
    },
    human: (r) => `Demo seeded: ${r.tiers} tiers, ${r.members} members, ${r.events} event with ${r.registrations} registrations, ${r.promo_codes} promo code.`,
  }),
];
