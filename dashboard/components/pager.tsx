// The pages of a list (members, finances, audit, invoices): "page N of M" with the links to the
// previous and next page, each list saying how its address names a page (`link`).
import { type DashboardTexts, fill } from "../../lib/i18n/dashboard";
import { h, type Html } from "../jsx";

export function Pager(props: { t: DashboardTexts; page: number; pages: number; link(page: number): string }): Html {
  const { t, page, pages } = props;
  return (
    <nav class="pager" aria-label={fill(t.pageOf, { page, pages })}>
      {page > 1 ? (
        <a href={props.link(page - 1)} rel="prev">
          {t.previous}
        </a>
      ) : null}
      <span>{fill(t.pageOf, { page, pages })}</span>
      {page < pages ? (
        <a href={props.link(page + 1)} rel="next">
          {t.next}
        </a>
      ) : null}
    </nav>
  );
}
