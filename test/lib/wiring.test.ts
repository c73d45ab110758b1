// Wiring you can see: lib/ takes its settings from whoever calls it (the Config in the Ctx or the
// job run), never from the environment, and nothing is wired by importing a module for its side
// effects: the server names the job kinds its worker runs in one table (server/jobs).
import { DUNNING_RUN } from "../../lib/dues/dunning";
import { INVOICE_MAIL } from "../../lib/invoices/send";
import { CARD_EMAIL_JOB } from "../../lib/members/card-email";
import { STRIPE_REFUND_JOB } from "../../lib/stripe-events";
import { STRIPE_END_SUBSCRIPTION_JOB } from "../../lib/stripe";
import { REMINDERS_RUN } from "../../lib/reminders";
import { expect, it } from "bun:test";
import { PENDING_EXPIRY_JOB } from "../../lib/events/hold";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { APPLE_PUSH } from "../../lib/cards/apple/apns";
import { GOOGLE_CLASS_UPDATE, GOOGLE_OBJECT_UPDATE } from "../../lib/cards/google";
import { MAIL_SEND } from "../../lib/mail";
import { MAILING_SEND, MAILING_START } from "../../lib/mailings/send";
import { IDEMPOTENCY_PURGE } from "../../lib/idempotency";
import { WALLET_PASS_UPDATE } from "../../lib/passes";
import { WEBHOOK_DELIVERY, WEBHOOK_FANOUT } from "../../lib/webhooks/emit";
import { WEBHOOK_DISABLED_MAIL, WEBHOOK_LOG_PURGE } from "../../lib/webhooks/deliver";
import { OAUTH_PURGE } from "../../lib/oauth/grants";
import { OAUTH_CLIENTS_PURGE } from "../../lib/oauth/clients";
import { JOB_KINDS, RECURRING } from "../../server/jobs";
import { JOBS_PURGE } from "../../lib/jobs";
import { RATE_PURGE } from "../../lib/ratelimit";
import { VOIDED_PASS_FORGET } from "../../lib/passes/voided";

const ROOT = join(import.meta.dir, "../..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

it("no lib/ module but lib/config.ts reads the environment or loads the settings itself", () => {
  const files = [...new Bun.Glob("lib/**/*.ts").scanSync(ROOT)].filter((f) => f !== "lib/config.ts");
  expect(files.length).toBeGreaterThan(20);
  const readers = files.filter((f) => /process\.env|Bun\.env|import\.meta\.env|\bloadConfig\b/.test(read(f)));
  expect(readers).toEqual([]);
});

it("the server imports no module for its side effects", () => {
  const sideEffectImports = [...new Bun.Glob("{app,http,server}/**/*.ts").scanSync(ROOT)].filter((f) => /^import\s+["']/m.test(read(f)));
  expect(sideEffectImports).toEqual([]);
});

it("the server's job table names every wallet and webhook job kind (the voided passes' forgetting too), the queued mail, the idempotency keys' purge, the reminders run, the end of unpaid holds, the purges of finished jobs, old webhook deliveries, expired OAuth tokens and counted request rates, the card email after an online payment, Stripe's refunds and subscription ends, the dunning run, the invoice mails and the mailings' start and sending", () => {
  expect(Object.keys(JOB_KINDS).sort()).toEqual(
    [
      APPLE_PUSH,
      GOOGLE_CLASS_UPDATE,
      GOOGLE_OBJECT_UPDATE,
      WALLET_PASS_UPDATE,
      VOIDED_PASS_FORGET,
      MAIL_SEND,
      IDEMPOTENCY_PURGE,
      REMINDERS_RUN,
      PENDING_EXPIRY_JOB,
      WEBHOOK_DELIVERY,
      WEBHOOK_FANOUT,
      WEBHOOK_DISABLED_MAIL,
      CARD_EMAIL_JOB,
      STRIPE_REFUND_JOB,
      STRIPE_END_SUBSCRIPTION_JOB,
      JOBS_PURGE,
      WEBHOOK_LOG_PURGE,
      OAUTH_PURGE,
      OAUTH_CLIENTS_PURGE,
      RATE_PURGE,
      DUNNING_RUN,
      INVOICE_MAIL,
      MAILING_START,
      MAILING_SEND,
    ].sort(),
  );
});

it("every recurring job's kind is in the server's table, and the server starts every chain", () => {
  for (const recurring of RECURRING) for (const kind of Object.keys(recurring.kinds)) expect(JOB_KINDS[kind]).toBe(recurring.kinds[kind]);
  expect(read("app/main.ts")).toContain("for (const recurring of RECURRING) await recurring.ensure(db);");
});
