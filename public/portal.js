// The portal's one script besides htmx: on a narrow screen the main navigation folds into a Menu button.
// Without this script the navigation stays unfolded (the button is never shown).
document.documentElement.classList.add("js");
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest("button.menu-toggle") : null;
  if (!button) return;
  const open = button.getAttribute("aria-expanded") !== "true";
  button.setAttribute("aria-expanded", String(open));
  button.closest("nav")?.classList.toggle("open", open);
});
