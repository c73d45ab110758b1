// The list pieces of the tiers, promo codes and events pages: the "add" button an admin who may
// edit sees, and a table with its header row (a column absent for this admin is null).
import { Fragment, h, type Child, type Html } from "../jsx";

export type Column = { label: string; class?: string } | null;

export function AddButton(props: { show: boolean; href: string; label: string }): Html {
  if (!props.show) return <Fragment />;
  return (
    <div class="actions">
      <a class="button" href={props.href}>
        {props.label}
      </a>
    </div>
  );
}

/** The table, or `empty` in a card when it has no row (`rows` 0). */
export function DataTable(props: { columns: Column[]; rows: number; empty?: string; labelledBy?: string; children?: Child }): Html {
  if (!props.rows) return <p class="card">{props.empty}</p>;
  return (
    <div class="table-wrap">
      <table aria-labelledby={props.labelledBy}>
        <thead>
          <tr>
            {props.columns.map((c) =>
              c ? (
                <th scope="col" class={c.class}>
                  {c.label}
                </th>
              ) : null,
            )}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** A term and its value in a `<dl class="facts">`. */
export function Fact(props: { term: string; children?: Child }): Html {
  return (
    <Fragment>
      <dt>{props.term}</dt>
      <dd>{props.children}</dd>
    </Fragment>
  );
}

/** Active or not (an archived tier, a deactivated code), as a status badge. */
export function ActiveBadge(props: { active: boolean; on: string; off: string }): Html {
  return <span class={`status status-${props.active ? "active" : "expired"}`}>{props.active ? props.on : props.off}</span>;
}

/** A row's own link in its cell (its accessible name says which row), or nothing when `show` is false. */
export function LinkCell(props: { show: boolean; href: string; text: string; label: string }): Html {
  if (!props.show) return <Fragment />;
  return (
    <td>
      <a href={props.href} aria-label={props.label}>
        {props.text}
      </a>
    </td>
  );
}
