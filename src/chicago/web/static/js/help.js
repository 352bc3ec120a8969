// The help page (#/help): the rules in short, the hands that score in pictures, the marks at
// the table, each rule set's Chicago call, what a rating is, and the guided first game.

import { h, replace } from "./dom.js";
import { t, items, onLangChange } from "./i18n.js";
import { api } from "./api.js";
import * as store from "./store.js";
import { chicagoRule, glossary } from "./rulewords.js";
import { presetName } from "./words.js";
import { scoringHands } from "./guide.js";

export class HelpPage {
  constructor(root) {
    this.root = root;
    this.info = null;
    this.off = onLangChange(() => this.mount());
  }

  mount() {
    this.draw();
    if (!this.info) {
      api.info().then((info) => {
        this.info = info;
        this.draw();
      }).catch(() => {});
    }
  }

  draw() {
    const info = this.info;
    const presets = info ? info.presets : [];
    const rules = info ? info.rules[info.default_preset] : null;
    replace(this.root, h("section", { class: "panel help" }, h("h1", {}, t("help.title")),
      items("help.body").map((p) => h("p", {}, p)),
      h("p", {}, h("button", {
        type: "button", class: "primary", dataset: { action: "guide-again" },
        onclick: () => {
          store.setOption("guide", "new"); // the lobby offers the guided game again
          location.hash = "#/";
        },
      }, t("guide.again"))),
      rules ? [h("h2", {}, t("help.hands_title")),
        h("p", { class: "muted" }, t("help.hands_note", { preset: presetName(info.default_preset) })),
        scoringHands(rules, { size: "sm" })] : null,
      h("h2", {}, t("help.marks_title")),
      h("dl", { class: "marks" }, glossary(rules || {}).map(([mark, words]) =>
        [h("dt", {}, mark), h("dd", {}, words[0].toUpperCase() + words.slice(1))])),
      presets.length ? h("h2", {}, t("help.presets_title")) : null,
      presets.map((name) => h("section", { class: "preset-rule", dataset: { preset: name } },
        h("h3", {}, presetName(name)), h("p", { class: "muted" }, t(`preset.${name}`)),
        h("ul", {}, chicagoRule(info.rules[name]).map((line) => h("li", {}, line))))),
      h("h2", { id: "ratings" }, t("help.ratings_title")),
      h("p", {}, t("club.rating_explain")),
      h("p", {}, h("a", { class: "button primary", href: "#/" }, t("lobby.quick")))));
  }

  unmount() {
    this.off();
  }
}
