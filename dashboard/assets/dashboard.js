// The dashboard's behaviour beyond htmx (a file, not inline: the CSP allows scripts from this
// host only). A button or form with data-confirm asks before it goes.
document.addEventListener("submit", (event) => {
  const form = event.target;
  const question = form instanceof HTMLFormElement ? form.dataset.confirm : undefined;
  if (question && !window.confirm(question)) event.preventDefault();
});
// "Select all" for the rows of a bulk action.
document.addEventListener("change", (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || box.dataset.selectAll === undefined) return;
  for (const other of document.querySelectorAll(`input[name="${box.dataset.selectAll}"]`)) other.checked = box.checked;
});
// A "copy" button (data-copy="<id>") puts the text of that element on the clipboard, once shown.
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
  if (!(button instanceof HTMLElement)) return;
  const source = document.getElementById(button.dataset.copy ?? "");
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent?.trim() ?? "").then(() => {
    if (button.dataset.copied) button.textContent = button.dataset.copied;
  });
});
// The navigation on a phone is one row that scrolls sideways: the current page's entry is brought
// into view, and the fade at the row's end (the cue that more follows) goes once the end is reached.
const navRow = document.querySelector(".nav ul");
if (navRow instanceof HTMLElement) {
  const current = navRow.querySelector('[aria-current="page"]');
  if (current instanceof HTMLElement && navRow.scrollWidth > navRow.clientWidth) {
    const offset = current.getBoundingClientRect().left - navRow.getBoundingClientRect().left;
    navRow.scrollLeft += offset - (navRow.clientWidth - current.offsetWidth) / 2;
  }
  const atEnd = () => navRow.parentElement?.classList.toggle("at-end", navRow.scrollLeft + navRow.clientWidth >= navRow.scrollWidth - 2);
  navRow.addEventListener("scroll", atEnd, { passive: true });
  atEnd();
}
