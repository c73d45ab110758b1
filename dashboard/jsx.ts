// The dashboard's JSX: @elysiajs/html's runtime (@kitajs/html) builds the tags and their
// attributes (escaped, booleans and htmx attributes typed), wrapped so that TEXT IS ESCAPED BY
// DEFAULT. Plain @kitajs/html leaves children unescaped unless each tag says `safe`: one tag
// forgotten around a member's name would be a stored XSS. Here an element is an `Html` object,
// and any string or number child is escaped; only `raw()` (a value we built ourselves) passes
// through as is. The `.tsx` files use it through tsconfig's `jsxFactory: "h"` and import `h`.
/// <reference types="@kitajs/html/htmx.d.ts" />
import { attributesToString, isVoidElement } from "@kitajs/html";

/** Markup that is already safe: made by `h` or by `raw`. */
export class Html {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

export type Child = Html | string | number | boolean | null | undefined | Child[];

/** Markup we produced ourselves (an SVG path, a JSON attribute already escaped): never user text. */
export function raw(html: string): Html {
  return new Html(html);
}

function append(out: string[], child: Child): void {
  if (child === null || child === undefined || child === false || child === true) return;
  if (child instanceof Html) out.push(child.html);
  else if (Array.isArray(child)) for (const c of child) append(out, c);
  else out.push(Bun.escapeHTML(String(child)));
}

/**
 * String attribute values escaped in full: @kitajs/html escapes only `"`, so a value holding
 * `&lt;` came back from a form as `<` (the browser decodes the reference).
 */
function escapedAttributes(attrs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) out[k] = typeof v === "string" ? Bun.escapeHTML(v) : v;
  return out;
}

type Component<P> = (props: P & { children?: Child }) => Html;

export function h(tag: string | Component<Record<string, unknown>>, attrs: Record<string, unknown> | null, ...children: Child[]): Html {
  if (typeof tag === "function") return tag({ ...(attrs ?? {}), children: children.length === 1 ? children[0] : children });
  const out: string[] = [];
  append(out, children);
  const attributes = attrs ? attributesToString(escapedAttributes(attrs)) : "";
  if (!out.length && isVoidElement(tag)) return new Html(`<${tag}${attributes}>`);
  return new Html(`<${tag}${attributes}>${out.join("")}</${tag}>`);
}

export function Fragment(props: { children?: Child }): Html {
  const out: string[] = [];
  append(out, props.children);
  return new Html(out.join(""));
}

type KitaElements = JSX.IntrinsicElements;

export namespace h {
  export namespace JSX {
    export type Element = Html;
    export type IntrinsicElements = { [K in keyof KitaElements]: Omit<KitaElements[K], "children" | "safe"> & { children?: Child } };
    export interface ElementChildrenAttribute {
      children: {};
    }
  }
}
