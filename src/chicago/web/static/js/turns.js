// "Your games": every table of the site where it is your turn (your profile's seats and the
// seats this browser holds), kept up to date by the site socket; and the switch for the
// browser's notifications.

import { h, replaceKeepingFocus } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { yourTurns, onTurns, notifyState, askToNotify } from "./site.js";

function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return date.toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
}

export class TurnsPage {
  constructor(root) {
    this.root = root;
    this.offLang = onLangChange(() => this.render());
    this.offTurns = onTurns(() => this.render());
  }

  mount() {
    this.render();
    this.root.querySelector("h1")?.focus?.();
  }

  unmount() {
    this.offLang();
    this.offTurns();
  }

  render() {
    const turns = yourTurns();
    const state = notifyState();
    const ask = state === "default" ? h("button", {
      type: "button", dataset: { action: "notify" }, onclick: async () => { await askToNotify(); this.render(); },
    }, t("turns.notify_ask")) : null;
    const said = state === "granted" ? t("turns.notify_on") : state === "denied" ? t("turns.notify_denied") : null;
    replaceKeepingFocus(this.root, h("section", { class: "panel turns" },
      h("h1", { tabindex: "-1" }, t("turns.title")),
      h("p", { class: "muted" }, t("turns.intro")),
      turns.length ? h("ul", { class: "rows", dataset: { testid: "turns" } }, turns.map((tb) => h("li", { dataset: { table: tb.table } },
        h("a", { href: `#/table/${tb.table}` }, tb.name || t("lobby.unnamed")), " ",
        h("span", { class: "muted" },
          tb.clock_days ? t("turns.days", { n: tb.clock_days }) : t("turns.live"),
          tb.deadline ? " · " + t("turns.deadline", { when: when(tb.deadline) }) : "")))) :
        h("p", { dataset: { testid: "no-turns" } }, t("turns.none")),
      h("div", { class: "notify" }, said ? h("p", { class: "muted" }, said) : null, ask)));
  }
}
