// Small DOM helpers. Text from the server (names, chat, messages) always goes in as text
// nodes, never as markup; only the app's own SVG cards are inserted as markup.

/**
 * h("button", {class: "x", onclick: fn, "aria-label": "…", dataset: {card: "Ah"}}, "text", child)
 * Attributes set to null/undefined/false are left out; `true` sets an empty attribute.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) {
        if (v !== null && v !== undefined) el.dataset[k] = String(v);
      }
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "html") {
      el.innerHTML = value; // only for the app's own SVG markup
    } else if (key === "value") {
      el.value = value;
    } else if (key === "checked" || key === "selected" || key === "disabled") {
      el[key] = Boolean(value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Replace an element's children and keep the keyboard focus where it was (rememberFocus):
 * a panel drawn anew by news from the server would otherwise drop the focus of someone
 * about to press Enter.
 */
export function replaceKeepingFocus(el, ...children) {
  const focus = rememberFocus(el);
  replace(el, ...children);
  focus.restore();
  return el;
}

/**
 * Note which control inside `root` has the keyboard focus, before `root` is drawn anew;
 * `restore()`, after the drawing, puts the focus (and a text field's caret) on the control
 * that names the same thing in the new drawing (focusKey), or leaves it when there is none.
 * Note it before the new children are built: a panel kept from one drawing to the next (the
 * lobby's people) loses the focus as soon as it moves into them.
 */
export function rememberFocus(root) {
  const active = document.activeElement;
  const key = active && active !== root && root.contains(active) ? focusKey(active, root) : null;
  if (!key) return { restore: () => null };
  const caret = typeof active.selectionStart === "number"
    ? [active.selectionStart, active.selectionEnd, active.selectionDirection || "none"] : null;
  return {
    restore: () => {
      const again = root.querySelector(key);
      if (!again || again.disabled) return null;
      if (again !== document.activeElement) again.focus({ preventScroll: true });
      if (caret && typeof again.setSelectionRange === "function") {
        try {
          again.setSelectionRange(...caret);
        } catch {
          // a field without a caret (a number, say)
        }
      }
      return again;
    },
  };
}

/**
 * A selector that names `control` alone inside `root`, built from what stays the same from
 * one drawing to the next: its id; else its tag with its data attributes (data-action,
 * data-profile, data-card, data-table, ...), a link's address, a field's name and value (its
 * classes when it has none of these: a scrolling region); and, while that names more than
 * one element, the data attributes of its nearest ancestors (a row's data-table, a window's
 * data-dialog). Null when nothing names it alone: better no focus than a wrong one.
 */
export function focusKey(control, root) {
  if (control.id) return `#${CSS.escape(control.id)}`;
  let key = ownKey(control);
  const alone = () => root.querySelectorAll(key).length === 1;
  for (let up = control.parentElement; key && up && up !== root && !alone(); up = up.parentElement) {
    const data = dataAttributes(up);
    if (data) key = `${data} ${key}`;
  }
  return key && alone() ? key : null;
}

function ownKey(el) {
  let key = dataAttributes(el);
  if (el.tagName === "A" && el.hasAttribute("href")) key += attribute("href", el.getAttribute("href"));
  if (el.name) key += attribute("name", el.name);
  if (el.type === "radio" || el.type === "checkbox") key += attribute("value", el.value);
  if (!key) key = [...el.classList].map((c) => `.${CSS.escape(c)}`).join("");
  return key ? `${el.tagName.toLowerCase()}${key}` : null;
}

function dataAttributes(el) {
  return [...el.attributes].filter((a) => a.name.startsWith("data-")).map((a) => attribute(a.name, a.value)).join("");
}

function attribute(name, value) {
  return `[${name}="${CSS.escape(value)}"]`;
}

/** Copy text to the clipboard; falls back to selecting a temporary field. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { class: "copy-field" }); // off screen: the style sheet
    area.value = text;
    document.body.appendChild(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}
