// Mail notices (docs/SERVER.md, "Mail"): the profile's address and wish, on its page; and the
// pages the links of the mails open (confirm the address, unsubscribe).

import { h, replaceKeepingFocus } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { api } from "./api.js";
import { errorText, showNotice } from "./notice.js";

/** The "Notices by mail" panel of one's own profile page. */
export class MailSettings {
  constructor(redraw) {
    this.redraw = redraw;
    this.state = null; // {available, address, confirmed, notify}
    this.draft = null;
    this.error = null;
  }

  async load() {
    try {
      this.state = await api.myMail();
    } catch (err) {
      this.error = errorText(err);
    }
    this.redraw();
  }

  async save(address, notify) {
    try {
      this.state = await api.setMyMail(address || null, notify);
      this.error = null;
      this.draft = null;
      showNotice(this.state.address && !this.state.confirmed ? t("mail.check_inbox") : t("mail.saved"));
    } catch (err) {
      this.error = errorText(err);
    }
    this.redraw();
  }

  panel() {
    const s = this.state;
    if (!s) return null;
    if (!s.available) return h("section", { class: "panel mail" }, h("h2", {}, t("mail.title")), h("p", { class: "muted" }, t("mail.off")));
    const address = h("input", { id: "mail-address", type: "email", maxlength: 254, autocomplete: "email",
      value: this.draft ?? (s.address || ""), oninput: (e) => { this.draft = e.target.value; } });
    const notify = h("input", { id: "mail-notify", type: "checkbox", checked: s.address ? s.notify : true });
    const status = !s.address ? t("mail.none") : s.confirmed ? (s.notify ? t("mail.on", { address: s.address }) : t("mail.paused", { address: s.address }))
      : t("mail.unconfirmed", { address: s.address });
    return h("section", { class: "panel mail", dataset: { club: "mail" } },
      h("h2", {}, t("mail.title")),
      h("p", { class: "muted" }, t("mail.intro")),
      h("p", { dataset: { testid: "mail-status" } }, status),
      h("form", { onsubmit: (e) => { e.preventDefault(); this.save(address.value.trim(), notify.checked); } },
        h("div", { class: "field" }, h("label", { for: "mail-address" }, t("mail.address")), address),
        h("label", { class: "choice" }, notify, " ", t("mail.notify")),
        h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary", dataset: { action: "save-mail" } }, t("mail.save")))),
      this.error ? h("p", { role: "alert" }, this.error) : null);
  }
}

/** The page a mail's link opens: the address confirmed, or no more notices to it. */
export class MailLinkPage {
  constructor(root, kind, token) {
    this.root = root;
    this.kind = kind; // confirm | unsubscribe
    this.token = token;
    this.result = null;
    this.offLang = onLangChange(() => this.render());
  }

  async mount() {
    this.render();
    try {
      await api.mailLink(this.kind, this.token);
      this.result = { ok: true };
    } catch (err) {
      this.result = { ok: false, text: errorText(err) };
    }
    this.render();
  }

  unmount() {
    this.offLang();
  }

  render() {
    const r = this.result;
    const text = !r ? t("loading") : r.ok ? t(this.kind === "confirm" ? "mail.confirmed" : "mail.unsubscribed") : r.text;
    replaceKeepingFocus(this.root, h("section", { class: "panel mail-link" },
      h("h1", {}, t("mail.title")),
      h("p", { role: r && !r.ok ? "alert" : "status", dataset: { testid: "mail-link" } }, text),
      h("p", {}, h("a", { href: "#/profile" }, t("nav.profile")))));
  }
}
