// A secret answered once (a new API key, a webhook's signing secret): shown in the page that
// answers its creation, never again, with a button that copies it (dashboard.js, data-copy).
import { h, type Html } from "../jsx";

export function ShownOnce(props: { id: string; title: string; text: string; value: string; copy: string; copied: string }): Html {
  return (
    <section class="card secret tight" aria-labelledby={`${props.id}-title`} role="status">
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      <p>{props.text}</p>
      <code id={`${props.id}-value`}>{props.value}</code>
      <div class="actions">
        <button type="button" data-copy={`${props.id}-value`} data-copied={props.copied}>
          {props.copy}
        </button>
      </div>
    </section>
  );
}
