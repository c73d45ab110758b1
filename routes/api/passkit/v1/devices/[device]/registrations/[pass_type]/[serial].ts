// POST|DELETE /api/passkit/v1/devices/[device]/registrations/[pass_type]/[serial] — a phone registers (or forgets) a pass for its updates
import { z } from "zod";
import { PASSKIT_RATE, registerDevice, unregisterDevice } from "../../../../../../../../lib/cards/apple/web-service";
import { route } from "../../../../../../../../server/route";

const params = z.object({ device: z.string().min(1).max(200), pass_type: z.string().min(1).max(200), serial: z.string().min(1).max(200) });

export const POST = route({
  summary: "Register a device for a pass's updates (Apple Wallet web service)",
  tags: ["passkit"],
  auth: "public",
  rateLimit: PASSKIT_RATE,
  hidden: true,
  raw: true,
  params,
  body: z.object({ pushToken: z.string().min(1).max(500) }),
  handler: async ({ ctx, params, body, request }) => {
    const { created } = await registerDevice(ctx, {
      device: params.device,
      passType: params.pass_type,
      serial: params.serial,
      authorization: request.headers.get("authorization"),
      pushToken: body.pushToken,
    });
    return { status: created ? 201 : 200, body: null };
  },
});

export const DELETE = route({
  summary: "Unregister a device from a pass's updates (Apple Wallet web service)",
  tags: ["passkit"],
  auth: "public",
  rateLimit: PASSKIT_RATE,
  hidden: true,
  raw: true,
  params,
  handler: async ({ ctx, params, request }) => {
    await unregisterDevice(ctx, {
      device: params.device,
      passType: params.pass_type,
      serial: params.serial,
      authorization: request.headers.get("authorization"),
    });
    return { body: null };
  },
});
