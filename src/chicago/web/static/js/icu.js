// ICU MessageFormat, the part the word catalogues use (lang/en.json, lang/sv.json), for the
// browser. The terminal formats the same messages with chicago/tui/lang/icu.py, and
// tests/test_lang_catalogue.py runs both on every message and compares. A message is text with
//
//   {name}                                        the parameter (left as "{name}" if not given,
//                                                 and so is #)
//   {n, plural, =0 {none} one {# card} other {# cards}}
//                                                 by the number: an exact =N first, else "one"
//                                                 for 1 and -1, else "other"; # is the number
//   {you, select, true {pass} other {passes}}     by the parameter's text ("true"/"false" for
//                                                 truth values), else "other"
//   ''  an apostrophe; '{' (an apostrophe before { } # |) quotes text up to the next one.
//
// No code is built from the text (the page's Content-Security-Policy forbids eval): a message
// is parsed once into parts and the parts are walked.

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const KEY = /=-?\d+(?:\.\d+)?|[A-Za-z_][A-Za-z0-9_-]*/y;
const SPACE = /\s*/y;
const QUOTABLE = "{}#|";

export class MessageError extends Error {
  name = "MessageError";
}

class Parser {
  constructor(text) {
    this.text = text;
    this.at = 0;
  }

  fail(what) {
    return new MessageError(`${what} at character ${this.at} of ${JSON.stringify(this.text)}`);
  }

  space() {
    SPACE.lastIndex = this.at;
    SPACE.exec(this.text);
    this.at = SPACE.lastIndex;
  }

  word(pattern, what) {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text);
    if (!found) throw this.fail(`expected ${what}`);
    this.at = pattern.lastIndex;
    return found[0];
  }

  expect(char) {
    if (!this.text.startsWith(char, this.at)) throw this.fail(`expected '${char}'`);
    this.at += 1;
  }

  message(inPlural, nested) {
    const parts = [];
    let literal = "";
    const flush = () => {
      if (literal) parts.push(literal);
      literal = "";
    };
    const text = this.text;
    let closed = false;
    while (this.at < text.length) {
      const char = text[this.at];
      if (char === "'") {
        literal += this.quoted();
      } else if (char === "{") {
        flush();
        parts.push(this.argument(inPlural));
      } else if (char === "}") {
        if (!nested) throw this.fail("unmatched '}'");
        closed = true;
        break;
      } else if (char === "#" && inPlural) {
        flush();
        parts.push({ pound: true });
        this.at += 1;
      } else {
        literal += char;
        this.at += 1;
      }
    }
    if (nested && !closed) throw this.fail("unclosed '{'");
    flush();
    return parts;
  }

  quoted() {
    const text = this.text;
    const following = text.slice(this.at + 1, this.at + 2);
    if (following === "'") {
      this.at += 2;
      return "'";
    }
    if (!following || !QUOTABLE.includes(following)) {
      this.at += 1;
      return "'";
    }
    let out = "";
    let at = this.at + 1;
    while (at < text.length) {
      if (text[at] === "'") {
        if (text[at + 1] === "'") {
          out += "'";
          at += 2;
          continue;
        }
        at += 1;
        break;
      }
      out += text[at];
      at += 1;
    }
    this.at = at;
    return out;
  }

  argument(inPlural) {
    this.expect("{");
    this.space();
    const name = this.word(NAME, "a parameter name");
    this.space();
    if (this.text.startsWith("}", this.at)) {
      this.at += 1;
      return { arg: name };
    }
    this.expect(",");
    this.space();
    const kind = this.word(NAME, "plural or select");
    if (kind !== "plural" && kind !== "select") throw this.fail(`unknown argument type '${kind}'`);
    this.space();
    this.expect(",");
    const branches = new Map();
    for (;;) {
      this.space();
      if (this.text.startsWith("}", this.at)) {
        this.at += 1;
        break;
      }
      const key = this.word(KEY, "a branch key");
      if (key.startsWith("=") && kind !== "plural") throw this.fail("an exact =N key outside a plural");
      if (branches.has(key)) throw this.fail(`the branch '${key}' twice`);
      this.space();
      this.expect("{");
      const inner = this.message(inPlural || kind === "plural", true);
      this.expect("}");
      branches.set(key, inner);
    }
    if (!branches.has("other")) throw this.fail(`{${name}, ${kind}} without an 'other' branch`);
    return { choice: name, kind, branches };
  }
}

const parsed = new Map();

/** The parts of a message (parsed once); throws MessageError when it is not valid. */
export function parse(message) {
  let parts = parsed.get(message);
  if (parts === undefined) {
    parts = new Parser(message).message(false, false);
    parsed.set(message, parts);
  }
  return parts;
}

function isNumber(value) {
  return typeof value === "number";
}

function pluralBranch(choice, value) {
  if (isNumber(value)) {
    for (const [key, parts] of choice.branches) {
      if (key.startsWith("=") && Number(key.slice(1)) === value) return parts;
    }
    if (Math.abs(value) === 1 && choice.branches.has("one")) return choice.branches.get("one");
  }
  return choice.branches.get("other");
}

function selectBranch(choice, value) {
  if (value !== undefined && value !== null) {
    const key = String(value);
    if (key !== "other" && choice.branches.has(key)) return choice.branches.get(key);
  }
  return choice.branches.get("other");
}

function argument(name, params) {
  return name in params ? String(params[name]) : `{${name}}`;
}

// Writes the parts; `number` is the name of the innermost plural's parameter (for #).
function render(parts, params, number) {
  let out = "";
  for (const part of parts) {
    if (typeof part === "string") out += part;
    else if (part.arg !== undefined) out += argument(part.arg, params);
    else if (part.pound) out += argument(number, params);
    else if (part.kind === "plural") out += render(pluralBranch(part, params[part.choice]), params, part.choice);
    else out += render(selectBranch(part, params[part.choice]), params, number);
  }
  return out;
}

/** The message with the parameters filled in (see the top of this file). */
export function formatMessage(message, params = {}) {
  return render(parse(message), params, undefined);
}
