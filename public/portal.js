// The portal's one script besides htmx: on a narrow screen the main navigation folds into a Menu button
// (without this script the navigation stays unfolded: the button is never shown), and pages that offer
// keyboard shortcuts (the review desk) get them.
document.documentElement.classList.add("js");
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest("button.menu-toggle") : null;
  if (!button) return;
  const open = button.getAttribute("aria-expanded") !== "true";
  button.setAttribute("aria-expanded", String(open));
  button.closest("nav")?.classList.toggle("open", open);
});

// A page's shortcuts: the element whose data-key is the key pressed is focused (a field) or clicked (a
// button, whose confirmation still asks first; a link). Never while typing, nor with a modifier held.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || event.key.length !== 1) return;
  if (event.target instanceof Element && event.target.closest("input, textarea, select, [contenteditable]")) return;
  const element = document.querySelector(`[data-key="${CSS.escape(event.key.toLowerCase())}"]`);
  if (!(element instanceof HTMLElement)) return;
  event.preventDefault();
  if (element.matches("input, textarea, select")) element.focus();
  else element.click();
});

// Where a page says where work starts (the desk's review), the keyboard starts there.
document.addEventListener("DOMContentLoaded", () => {
  const start = document.querySelector("[data-focus]");
  if (start instanceof HTMLElement) start.focus({ preventScroll: true });
});
