// POST|DELETE /api/passkit/v1/devices/[device]/registrations/[pass_type]/[serial] — a phone registers (or forgets) a pass for its updates
import { z } from "zod";
import { registerDevice, unregisterDevice } from "../../../../../../../../lib/cards/apple/web-service";
import { route } from "../../../../../../../../server/route";
import { passkitCall } from "../../../../../../../../server/state";

const params = z.object({ device: z.string().min(1).max(200), pass_type: z.string().min(1).max(200), serial: z.string().min(1).max(200) });

export const POST = route({
  summary: "Register a device for a pass's updates (Apple Wallet web service)",
  tags: ["passkit"],
  auth: "public",
  hidden: true,
  raw: true,
  params,
  body: z.object({ pushToken: z.string().min(1).max(500) }),
  handler: async ({ deps, params, body, request }) => {
    const { created } = await registerDevice(passkitCall(deps, request), {
      device: params.device,
      passType: params.pass_type,
      serial: params.serial,
      pushToken: body.pushToken,
    });
    return new Response(null, { status: created ? 201 : 200 });
  },
});

export const DELETE = route({
  summary: "Unregister a device from a pass's updates (Apple Wallet web service)",
  tags: ["passkit"],
  auth: "public",
  hidden: true,
  raw: true,
  params,
  handler: async ({ deps, params, request }) => {
    await unregisterDevice(passkitCall(deps, request), {
      device: params.device,
      passType: params.pass_type,
      serial: params.serial,
    });
    return new Response(null, { status: 200 });
  },
});
