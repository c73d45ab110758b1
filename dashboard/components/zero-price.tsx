// The warning a club selling memberships at 0 sees (its fee 0, no tier with a price): on the
// settings page and the import page, where it decides what imported members will be asked.
import { IMPORT_TEXTS } from "../../lib/i18n/dashboard-import";
import { membershipPricing, updateTier } from "../../lib/tiers";
import { h, type Html, raw } from "../jsx";
import type { PageInput } from "../page";

/** The warning, when the club sells at 0 and the admin may see its finances; nothing otherwise. */
export async function zeroPriceWarning(input: PageInput): Promise<Html> {
  if (!input.can(membershipPricing.scope) || !(await membershipPricing(input.ctx, {})).at_zero) return raw("");
  const tt = IMPORT_TEXTS[input.locale];
  return (
    <div class="notice warn" role="note" id="zero-price">
      <p>{tt.zeroPrice}</p>
      <p class="actions">
        <a href="/admin/settings#payout">{tt.zeroPriceSettings}</a>
        {input.can(updateTier.scope) ? <a href="/admin/tiers">{tt.zeroPriceTiers}</a> : null}
      </p>
    </div>
  );
}
