// The portal's one script besides htmx: on a narrow screen the main navigation folds into a Menu button
// (without this script the navigation stays unfolded: the button is never shown) and tables become
// cards; a refused form brings its problems into view; pages that offer keyboard shortcuts (the review
// desk) get them.
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

// A reason box that sends its form on Enter (the desk's decline, whose confirmation still asks first);
// Shift+Enter starts a new line, and Enter that picks an input method's candidate is left alone.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || event.shiftKey || event.ctrlKey || event.metaKey || event.altKey || event.isComposing || event.defaultPrevented) return;
  const field = event.target instanceof Element ? event.target.closest("textarea[data-enter-submits]") : null;
  if (!(field instanceof HTMLTextAreaElement) || !field.form) return;
  event.preventDefault();
  field.form.requestSubmit();
});

// Where a page says where work starts (the desk's review), the keyboard starts there.
document.addEventListener("DOMContentLoaded", () => {
  const start = document.querySelector("[data-focus]");
  if (start instanceof HTMLElement) start.focus({ preventScroll: true });
});

// On a phone every table reads as cards (app.css, table.stacked): each cell is named by its column's
// heading, so a row's action is in view rather than off the side of the screen. Without this script a
// wide table scrolls inside its own box instead. Rows htmx swaps in (a decision, "Show more") are named too.
function cardTables(root) {
  const tables = new Set(root.querySelectorAll("table"));
  const around = root instanceof Element ? root.closest("table") : null;
  if (around) tables.add(around);
  for (const table of tables) {
    const headings = Array.from(table.querySelectorAll("thead th"), (th) => th.textContent.trim());
    if (headings.length === 0) continue;
    for (const row of table.querySelectorAll("tbody tr, tfoot tr")) {
      let column = 0;
      for (const cell of row.cells) {
        // A cell across several columns (a row's outcome, "Show more") belongs to none of them.
        if (cell.tagName === "TD" && cell.colSpan === 1 && headings[column] && !cell.hasAttribute("data-label"))
          cell.setAttribute("data-label", headings[column]);
        column += cell.colSpan;
      }
    }
    table.classList.add("stacked");
  }
}
document.addEventListener("DOMContentLoaded", () => cardTables(document));
document.addEventListener("htmx:load", (event) => {
  if (event.target instanceof Element) cardTables(event.target);
});

// A refused form's messages sit beside their fields, which on a phone can be a screen or more above the
// button just pressed. The form gets a summary at its top linking to each field to correct; the first
// problem is brought into view, and the focus goes to the first refused field when that is in view too,
// else to the problem (read out first either way: it is an alert).
const inView = (element) => {
  const box = element.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
};

function summaryOf(fields) {
  const summary = document.createElement("div");
  summary.className = "problem problem-summary";
  summary.setAttribute("role", "alert");
  const intro = document.createElement("p");
  intro.textContent = fields.length === 1 ? "Check this field:" : "Check these fields:";
  const list = document.createElement("ul");
  for (const field of fields) {
    const link = document.createElement("a");
    link.href = `#${field.id}`;
    link.textContent = (field.labels?.[0]?.textContent ?? field.name).trim();
    const item = document.createElement("li");
    item.append(link);
    list.append(item);
  }
  summary.append(intro, list);
  return summary;
}

/** Brings the refusal inside `root` into view; false when there is none. */
function showRefusal(root) {
  const refused = Array.from(root.querySelectorAll('[aria-invalid="true"]'));
  const form = refused[0]?.closest("form");
  if (form && !form.querySelector(".problem-summary")) form.prepend(summaryOf(refused.filter((field) => field.closest("form") === form)));
  const problem = root.matches(".problem") ? root : root.querySelector(".problem");
  if (!problem) return false;
  problem.scrollIntoView({ block: "nearest" });
  const field = refused[0];
  const focused = field && inView(field) ? field : problem;
  if (focused === problem) problem.setAttribute("tabindex", "-1");
  focused.focus({ preventScroll: true });
  return true;
}

// A refusal comes back as a 4xx with the form (views/htmx.tsx); htmx settles each swapped element in turn.
let shownRefusal = null;
document.addEventListener("htmx:afterSettle", (event) => {
  const xhr = event.detail?.xhr;
  if (!xhr || xhr.status < 400 || xhr.status > 499 || xhr === shownRefusal || !(event.target instanceof Element)) return;
  if (showRefusal(event.target)) shownRefusal = xhr;
});
// A form refused by a whole page (sent without htmx, or a list's filters).
document.addEventListener("DOMContentLoaded", () => {
  if (document.querySelector('[aria-invalid="true"]')) showRefusal(document.getElementById("main") ?? document.body);
});
// A summary's link takes the focus to its field, its label in view.
document.addEventListener("click", (event) => {
  const link = event.target instanceof Element ? event.target.closest('.problem-summary a[href^="#"]') : null;
  const field = link ? document.getElementById(link.getAttribute("href").slice(1)) : null;
  if (!field) return;
  event.preventDefault();
  (field.labels?.[0] ?? field).scrollIntoView({ block: "start" });
  field.focus({ preventScroll: true });
});
