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
 * Replace an element's children and keep the keyboard focus: if it was on a control inside
 * `el`, it moves to the new control with the same id, or the same data-action and
 * data-profile, when there is one (a panel redrawn by news from the server would otherwise
 * drop the focus of someone about to press Enter).
 */
export function replaceKeepingFocus(el, ...children) {
  const active = document.activeElement;
  const key = active && active !== el && el.contains(active) ? focusSelector(active) : null;
  replace(el, ...children);
  const again = key ? el.querySelector(key) : null;
  if (again && !again.disabled) again.focus({ preventScroll: true });
  return el;
}

/** A selector naming a focused control again after a redraw, or null. */
function focusSelector(control) {
  if (control.id) return `#${CSS.escape(control.id)}`;
  const data = control.dataset || {};
  if (!data.action) return null;
  const profile = data.profile ? `[data-profile="${CSS.escape(data.profile)}"]` : "";
  return `[data-action="${CSS.escape(data.action)}"]${profile}`;
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
