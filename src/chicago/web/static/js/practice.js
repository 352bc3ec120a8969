// The Practise page (issue 25; docs/WEB.md, "Practise"): exercises made of the costly
// decisions in reviewed games, taken again. #/practice shows the exercise of the day (drawn
// from the site's reviewed games) and, for a signed-in profile, its own mistakes; a run puts
// one exercise at a time as the seat saw it then (its hand, the scores, the trick on the
// table), the player picks a choice, and the server grades it as the review grades that
// choice (POST api/practice/answer) and says why; the run ends with a score.
//
// An exercise holds only what its seat saw (the server makes them of finished games only).

import { h, replaceKeepingFocus } from "./dom.js";
import { t, num, onLangChange } from "./i18n.js";
import { api } from "./api.js";
import { cardRow } from "./board.js";
import { cardText } from "./cards.js";
import { errorText } from "./notice.js";
import { profile } from "./store.js";
import { choiceText, reasonText, whereText } from "./review.js";

/** An exercise (or an answered one) as a review decision, for choiceText and reasonText. */
function asDecision(exercise, extra = {}) {
  return { ...exercise, alternatives: exercise.choices, action: extra.action || "", ...extra };
}

function seatWord(exercise, seat) {
  return seat === exercise.seat ? t("you") : t("seat_n", { n: seat });
}

function lossText(value) {
  return num(value, 2);
}

export class PracticePage {
  constructor(root) {
    this.root = root;
    this.run = null; // {exercises, at, answers: [], current: answer|null, busy}
    this.daily = null;
    this.mine = null;
    this.error = null;
    this.off = onLangChange(() => this.draw());
  }

  async mount() {
    this.draw();
    const me = profile();
    const [daily, mine] = await Promise.allSettled([
      api.practiceDaily(),
      me && me.secret ? api.practiceMine() : Promise.resolve(null),
    ]);
    this.daily = daily.status === "fulfilled" ? daily.value : null;
    this.mine = mine.status === "fulfilled" ? mine.value : null;
    if (daily.status === "rejected") this.error = daily.reason;
    else if (mine.status === "rejected") this.error = mine.reason;
    this.draw();
  }

  unmount() {
    this.off();
  }

  start(exercises) {
    this.run = { exercises, at: 0, answers: [], current: null, busy: false };
    this.draw();
  }

  async choose(action) {
    const run = this.run;
    if (!run || run.busy || run.current) return;
    run.busy = true;
    this.draw();
    try {
      run.current = await api.practiceAnswer(run.exercises[run.at].ref, action);
      run.answers.push(run.current.answer);
      this.error = null;
    } catch (err) {
      this.error = err;
    }
    run.busy = false;
    this.draw();
    this.root.querySelector("[data-testid=practice-verdict]")?.focus();
  }

  next() {
    this.run.at += 1;
    this.run.current = null;
    this.draw();
    this.root.querySelector(".practice-choices button")?.focus();
  }

  draw() {
    const body = this.run ? this.runView() : this.startView();
    replaceKeepingFocus(this.root, h("section", { class: "panel practice", dataset: { testid: "practice" } },
      h("h1", {}, t("practice.title")),
      this.error ? h("p", { class: "notice", role: "alert" }, errorText(this.error)) : null,
      body));
  }

  startView() {
    const mine = this.mine ? this.mine.exercises : null;
    const daily = this.daily ? this.daily.exercise : null;
    return [
      h("p", { class: "muted" }, t("practice.intro")),
      h("div", { class: "practice-start" },
        h("button", { type: "button", class: "primary", disabled: !daily, dataset: { action: "practice-daily" }, onclick: () => this.start([daily]) },
          t("practice.daily")),
        mine === null
          ? h("p", { class: "muted" }, t("practice.sign_in"))
          : h("button", { type: "button", disabled: !mine.length, dataset: { action: "practice-mine" }, onclick: () => this.start(mine) },
            t("practice.mine", { n: mine.length }))),
      this.daily && !daily ? h("p", { class: "muted" }, t("practice.none")) : null,
    ];
  }

  runView() {
    const run = this.run;
    if (run.at >= run.exercises.length) return this.summary();
    const exercise = run.exercises[run.at];
    const answered = run.current;
    const decision = asDecision(exercise);
    return h("article", { class: "practice-exercise", dataset: { testid: "exercise", step: exercise.step } },
      h("h2", {}, t("practice.of", { i: run.at + 1, n: run.exercises.length }), " · ",
        t("review.deal_where", { deal: exercise.deal, where: whereText(exercise) })),
      h("p", { class: "practice-scores" }, t("practice.scores", {
        scores: exercise.scores.map((s, seat) => `${seatWord(exercise, seat)} ${s}`).join(", ") })),
      h("div", { class: "practice-hand" }, h("span", { class: "muted" }, t("review.hand")), cardRow(exercise.hand, "md")),
      exercise.trick.length
        ? h("p", {}, t("practice.table", { cards: exercise.trick.map((p) => `${seatWord(exercise, p.seat)} ${cardText(p.card)}`).join(", ") }))
        : null,
      exercise.declarer !== null ? h("p", {}, t("practice.declared", { who: seatWord(exercise, exercise.declarer) })) : null,
      h("p", { class: "practice-question" }, t(`practice.q.${exercise.phase.replace(" ", "_")}`)),
      h("div", { class: "practice-choices", role: "group", "aria-label": t(`practice.q.${exercise.phase.replace(" ", "_")}`) },
        exercise.choices.map((c) => h("button", {
          type: "button", disabled: Boolean(answered) || run.busy, dataset: { action: `choice-${c.action}` },
          class: answered && answered.answer.action === c.action ? `chosen grade-${answered.answer.grade}` : null,
          onclick: () => this.choose(c.action),
        }, choiceText(decision, c.action)))),
      answered ? this.verdict(exercise, answered) : null);
  }

  verdict(exercise, answered) {
    const a = answered.answer;
    const decision = asDecision({ ...exercise, choices: answered.choices }, { action: a.action, why: a.why, best: answered.best });
    const best = choiceText(decision, answered.best);
    const head = a.grade === "best" ? t("practice.right", { best })
      : t("practice.wrong", { grade: t(`grade.${a.grade}`), loss: lossText(a.loss), best });
    const last = this.run.at + 1 >= this.run.exercises.length;
    return h("div", { class: "practice-verdict", tabindex: "-1", role: "status", dataset: { testid: "practice-verdict", grade: a.grade } },
      h("p", {}, h("span", { class: `grade grade-${a.grade}` }, t(`grade.${a.grade}`)), " ", head),
      a.why ? h("p", { class: "review-reason" }, reasonText(decision)) : null,
      h("button", { type: "button", class: "primary", dataset: { action: "practice-next" }, onclick: () => this.next() },
        last ? t("practice.finish") : t("practice.next")));
  }

  summary() {
    const answers = this.run.answers;
    const best = answers.filter((a) => a.grade === "best").length;
    const lost = answers.reduce((sum, a) => sum + a.loss, 0);
    const scores = answers.map((a) => 100 * Math.exp(-a.loss / 1.5));
    const accuracy = scores.length ? scores.reduce((x, y) => x + y, 0) / scores.length : 100;
    return h("div", { class: "practice-summary", dataset: { testid: "practice-score" } },
      h("p", {}, t("practice.score", { best, answered: answers.length, total: this.run.exercises.length, lost: lossText(lost), accuracy: num(accuracy, 1) })),
      h("button", { type: "button", dataset: { action: "practice-again" }, onclick: () => { this.run = null; this.draw(); } }, t("practice.again")));
  }
}
