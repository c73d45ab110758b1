// A local stand-in for Stripe: the part of its API the product calls (Checkout Sessions create,
// subscriptions update and cancel, PaymentIntents retrieve with their charge and balance transaction
// expanded, invoice payments list, refunds create), with the secret key checked, and the events
// Stripe would send, signed as Stripe signs them (the `stripe` package's own test helper). The
// tests play the payer: `pay(session)` completes a Checkout Session as Stripe's page would.
import Stripe from "stripe";

// biome-ignore lint/suspicious/noExplicitAny: the tests read Stripe's JSON shapes field by field
export type Json = any;

export const SECRET_KEY = "sk_test_club_fake_0123456789";
export const WEBHOOK_SECRET = "whsec_club_fake_0123456789abcdef";

/** One API call as the fake saw it. */
export type Recorded = { method: string; path: string; body: Json };

/** `a[b][0][c]=1` form fields (how the package encodes a request) as nested objects. */
function parseForm(text: string): Json {
  const out: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = node[part] ??= {};
    });
  }
  return out;
}

const listOf = (obj: Json): Json[] => (obj ? Object.keys(obj).map((k) => obj[k]) : []);

export async function fakeStripe() {
  let n = 0;
  const id = (prefix: string) => `${prefix}_fake${String(++n).padStart(6, "0")}`;
  const sessions = new Map<string, Json>();
  const intents = new Map<string, Json>();
  const charges = new Map<string, Json>();
  const txns = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const invoices = new Map<string, Json>();
  /** Each payout's balance transactions, their sources expanded. */
  const payoutTxns = new Map<string, Json[]>();
  const calls: Recorded[] = [];
  /** Statuses to answer to the next API calls, before anything else. */
  const failures: number[] = [];
  const signer = new Stripe(SECRET_KEY);

  const error = (status: number, message: string) => Response.json({ error: { type: "invalid_request_error", message } }, { status });

  function createSession(p: Json): Json {
    const item = listOf(p.line_items)[0];
    const s = {
      id: id("cs_test"),
      object: "checkout.session",
      mode: p.mode,
      status: "open",
      payment_status: "unpaid",
      amount_total: Number(item.price_data.unit_amount) * Number(item.quantity ?? 1),
      currency: item.price_data.currency,
      recurring: item.price_data.recurring
        ? { interval: item.price_data.recurring.interval, interval_count: Number(item.price_data.recurring.interval_count) }
        : null,
      label: item.price_data.product_data.name,
      customer: p.customer ?? null,
      customer_email: p.customer_email ?? null,
      client_reference_id: p.client_reference_id ?? null,
      metadata: p.metadata ?? {},
      payment_intent_metadata: p.payment_intent_data?.metadata ?? null,
      subscription_metadata: p.subscription_data?.metadata ?? null,
      locale: p.locale ?? null,
      success_url: p.success_url,
      cancel_url: p.cancel_url,
      expires_at: p.expires_at ? Number(p.expires_at) : Math.floor(Date.now() / 1000) + 86_400,
      payment_intent: null,
      subscription: null,
      invoice: null,
      url: "",
    };
    s.url = `https://checkout.stripe.test/c/pay/${s.id}`;
    sessions.set(s.id, s);
    return s;
  }

  /** A paid PaymentIntent with its charge and balance transaction (Stripe's fee: 2.9 % + 30 unless `fee` says). */
  function charge(amount: number, currency: string, metadata: Json, fee?: number, exchangeRate?: number): Json {
    const txn = {
      id: id("txn"),
      object: "balance_transaction",
      amount: exchangeRate ? Math.round(amount * exchangeRate) : amount,
      currency: exchangeRate ? "eur" : currency,
      exchange_rate: exchangeRate ?? null,
      fee: fee ?? Math.round(amount * 0.029) + 30,
    };
    txns.set(txn.id, txn);
    const pi = { id: id("pi"), object: "payment_intent", amount, currency, status: "succeeded", metadata: metadata ?? {}, latest_charge: "" };
    const ch = {
      id: id("ch"),
      object: "charge",
      amount,
      currency,
      paid: true,
      refunded: false,
      amount_refunded: 0,
      payment_intent: pi.id,
      balance_transaction: txn.id,
      metadata: metadata ?? {},
    };
    pi.latest_charge = ch.id;
    intents.set(pi.id, pi);
    charges.set(ch.id, ch);
    return pi;
  }

  function paidInvoice(sub: Json, amount: number, reason: string, fee?: number): Json {
    const pi = charge(amount, sub.currency, {}, fee);
    const invoice = {
      id: id("in"),
      object: "invoice",
      amount_paid: amount,
      currency: sub.currency,
      billing_reason: reason,
      customer: sub.customer,
      status: "paid",
      parent: { type: "subscription_details", subscription_details: { subscription: sub.id, metadata: sub.metadata }, quote_details: null },
      payment_intent_id: pi.id,
    };
    invoices.set(invoice.id, invoice);
    return invoice;
  }

  function expandIntent(pi: Json, expand: string[]): Json {
    const out = { ...pi };
    if (expand.some((e) => e.startsWith("latest_charge"))) {
      out.latest_charge = { ...charges.get(pi.latest_charge) };
      if (expand.includes("latest_charge.balance_transaction")) out.latest_charge.balance_transaction = txns.get(out.latest_charge.balance_transaction);
    }
    return out;
  }

  async function api(req: Request, path: string, url: URL): Promise<Response> {
    const text = req.method === "GET" ? url.search.slice(1) : await req.text();
    const body = parseForm(text);
    calls.push({ method: req.method, path, body });
    const failure = failures.shift();
    if (failure) return error(failure, `fake failure ${failure}`);
    if (req.headers.get("authorization") !== `Bearer ${SECRET_KEY}`) return error(401, "Invalid API Key provided");
    const expand = listOf(body.expand);
    /** The id in `path` when it is `prefix/<id>` and the method is `method`. */
    const idIn = (method: string, prefix: string) => (req.method === method && path.startsWith(`${prefix}/`) ? path.slice(prefix.length + 1) : null);
    const subId = idIn("POST", "/v1/subscriptions");
    const cancelled = idIn("DELETE", "/v1/subscriptions");
    const intentId = idIn("GET", "/v1/payment_intents");
    const chargeId = idIn("GET", "/v1/charges");
    const txnId = idIn("GET", "/v1/balance_transactions");
    if (req.method === "POST" && path === "/v1/checkout/sessions") return Response.json(createSession(body));
    if (subId) {
      const sub = subscriptions.get(subId);
      if (!sub) return error(404, `No such subscription: '${subId}'`);
      if (body.cancel_at_period_end !== undefined) sub.cancel_at_period_end = body.cancel_at_period_end === "true";
      return Response.json(sub);
    }
    if (cancelled) {
      const sub = subscriptions.get(cancelled);
      if (!sub) return error(404, `No such subscription: '${cancelled}'`);
      sub.status = "canceled";
      return Response.json(sub);
    }
    if (intentId) {
      const pi = intents.get(intentId);
      return pi ? Response.json(expandIntent(pi, expand)) : error(404, `No such payment_intent: '${intentId}'`);
    }
    if (chargeId) {
      const ch = charges.get(chargeId);
      return ch
        ? Response.json(expand.includes("balance_transaction") ? { ...ch, balance_transaction: txns.get(ch.balance_transaction) } : ch)
        : error(404, "No such charge");
    }
    if (txnId) {
      const txn = txns.get(txnId);
      return txn ? Response.json(txn) : error(404, "No such balance transaction");
    }
    if (req.method === "GET" && path === "/v1/balance_transactions") {
      const data = payoutTxns.get(body.payout) ?? [];
      return Response.json({
        object: "list",
        data: expand.includes("data.source") ? data : data.map((t) => ({ ...t, source: t.source?.id ?? null })),
        has_more: false,
        url: "/v1/balance_transactions",
      });
    }
    if (req.method === "GET" && path === "/v1/invoice_payments") {
      const invoice = invoices.get(body.invoice);
      const data = invoice
        ? [
            {
              id: id("inpay"),
              object: "invoice_payment",
              invoice: invoice.id,
              is_default: true,
              payment: { type: "payment_intent", payment_intent: invoice.payment_intent_id },
            },
          ]
        : [];
      return Response.json({ object: "list", data, has_more: false, url: "/v1/invoice_payments" });
    }
    if (req.method === "POST" && path === "/v1/refunds") {
      const pi = intents.get(body.payment_intent);
      if (!pi) return error(404, "No such payment_intent");
      const ch = charges.get(pi.latest_charge);
      const amount = body.amount ? Number(body.amount) : ch.amount - ch.amount_refunded;
      ch.amount_refunded += amount;
      ch.refunded = ch.amount_refunded >= ch.amount;
      return Response.json({ id: id("re"), object: "refund", amount, payment_intent: pi.id, charge: ch.id, status: "succeeded" });
    }
    return error(404, `Unrecognized request URL (${req.method}: ${path})`);
  }

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const url = new URL(req.url);
      return api(req, url.pathname, url);
    },
  });

  /** An event as Stripe sends it. */
  function event(type: string, object: Json, eventId = id("evt")): Json {
    return {
      id: eventId,
      object: "event",
      api_version: "2026-10-28.endive",
      created: Math.floor(Date.now() / 1000),
      type,
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
  }

  return {
    url: `http://127.0.0.1:${server.port}`,
    env: { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: `http://127.0.0.1:${server.port}` },
    calls,
    failures,
    sessions,
    subscriptions,
    charges,
    intents,
    /** The session a `checkout_url` names. */
    sessionOf(checkoutUrl: string): Json {
      return sessions.get(checkoutUrl.split("/").pop() as string);
    },
    /**
     * The payer completes the Checkout Session (as on Stripe's page): the PaymentIntent, charge and
     * fee; for a subscription its customer, subscription and first invoice. The event Stripe sends.
     */
    pay(sessionId: string, opts: { fee?: number; exchangeRate?: number } = {}): Json {
      const s = sessions.get(sessionId);
      s.status = "complete";
      s.payment_status = "paid";
      s.customer ??= id("cus");
      if (s.mode === "subscription") {
        const sub = {
          id: id("sub"),
          object: "subscription",
          customer: s.customer,
          status: "active",
          cancel_at_period_end: false,
          currency: s.currency,
          amount: s.amount_total,
          metadata: s.subscription_metadata ?? {},
        };
        subscriptions.set(sub.id, sub);
        const invoice = paidInvoice(sub, s.amount_total, "subscription_create", opts.fee);
        s.subscription = sub.id;
        s.invoice = invoice.id;
      } else {
        s.payment_intent = charge(s.amount_total, s.currency, s.payment_intent_metadata, opts.fee, opts.exchangeRate).id;
      }
      return event("checkout.session.completed", { ...s });
    },
    /** The subscription renews: its next invoice is paid. The `invoice.paid` event. */
    renew(subscriptionId: string, opts: { fee?: number; reason?: string } = {}): Json {
      const sub = subscriptions.get(subscriptionId);
      return event("invoice.paid", paidInvoice(sub, sub.amount, opts.reason ?? "subscription_cycle", opts.fee));
    },
    /** The subscription ends (cancelled, or its last period over). The `customer.subscription.deleted` event. */
    endSubscription(subscriptionId: string): Json {
      const sub = subscriptions.get(subscriptionId);
      sub.status = "canceled";
      return event("customer.subscription.deleted", { ...sub });
    },
    /** A refund of `amount` (default: the rest) of the PaymentIntent's charge, made in Stripe's dashboard. The `charge.refunded` event. */
    refund(paymentIntentId: string, amount?: number): Json {
      const ch = charges.get(intents.get(paymentIntentId).latest_charge);
      ch.amount_refunded += amount ?? ch.amount - ch.amount_refunded;
      ch.refunded = ch.amount_refunded >= ch.amount;
      return event("charge.refunded", { ...ch });
    },
    /**
     * Stripe pays the balance out: a payout of the PaymentIntents' charges (their fee deducted),
     * less what was refunded of them, and a `fee_adjustment` of `adjustment` cents that names no
     * payment. The `payout.paid` event.
     */
    payout(paymentIntentIds: string[], opts: { adjustment?: number; arrival?: Date } = {}): Json {
      const parts: Json[] = [];
      for (const piId of paymentIntentIds) {
        const ch = charges.get(intents.get(piId).latest_charge);
        const fee = txns.get(ch.balance_transaction).fee;
        parts.push({ id: id("txn"), object: "balance_transaction", type: "charge", amount: ch.amount, fee, net: ch.amount - fee, source: { ...ch } });
        if (ch.amount_refunded) {
          const refund = { id: id("re"), object: "refund", amount: ch.amount_refunded, payment_intent: piId, charge: ch.id };
          parts.push({
            id: id("txn"),
            object: "balance_transaction",
            type: "refund",
            amount: -ch.amount_refunded,
            fee: 0,
            net: -ch.amount_refunded,
            source: refund,
          });
        }
      }
      if (opts.adjustment)
        parts.push({ id: id("txn"), object: "balance_transaction", type: "adjustment", amount: opts.adjustment, fee: 0, net: opts.adjustment, source: null });
      const amount = parts.reduce((sum, t) => sum + t.net, 0);
      const currency = charges.get(intents.get(paymentIntentIds[0]).latest_charge).currency;
      const payout = {
        id: id("po"),
        object: "payout",
        amount,
        currency,
        status: "paid",
        arrival_date: Math.floor((opts.arrival ?? new Date()).getTime() / 1000),
      };
      payoutTxns.set(payout.id, parts);
      return event("payout.paid", payout);
    },
    event,
    /** The `Stripe-Signature` header of `payload`, as Stripe makes it (`timestamp`: seconds; `secret`: another endpoint's to forge). */
    sign(payload: string, opts: { timestamp?: number; secret?: string } = {}): Promise<string> {
      return signer.webhooks.generateTestHeaderStringAsync({ payload, secret: opts.secret ?? WEBHOOK_SECRET, timestamp: opts.timestamp });
    },
    stop: () => server.stop(true),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof fakeStripe>>;
