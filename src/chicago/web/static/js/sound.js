// Sounds of the table, synthesized with the Web Audio API (no sound files): a card played,
// your turn, a scoring round won, a Chicago called, made or broken. The switch is remembered
// in localStorage ("chicago.option.sound", on by default). The browser lets a page make
// sound only after the person has touched it, so the audio context starts on the first
// click or key press; cues before that are skipped.

import { option, setOption } from "./store.js";

const VOLUME = 0.18;

/** Note frequencies (Hz) used by the cues. */
const NOTE = { G4: 392, A4: 440, C5: 523.25, D5: 587.33, E5: 659.25, F4: 349.23, G5: 783.99, C4: 261.63, A5: 880 };

/** Each cue: a list of tones [start s, frequency Hz, length s, wave] or the card's snap. */
const CUES = {
  turn: [[0, NOTE.E5, 0.12, "sine"], [0.13, NOTE.A5, 0.18, "sine"]],
  round: [[0, NOTE.C5, 0.1, "triangle"], [0.1, NOTE.E5, 0.1, "triangle"], [0.2, NOTE.G5, 0.22, "triangle"]],
  chicago: [[0, NOTE.G4, 0.1, "square"], [0.11, NOTE.C5, 0.1, "square"], [0.22, NOTE.E5, 0.1, "square"], [0.33, NOTE.G5, 0.3, "square"]],
  made: [[0, NOTE.C5, 0.12, "triangle"], [0.12, NOTE.E5, 0.12, "triangle"], [0.24, NOTE.G5, 0.12, "triangle"],
    [0.36, NOTE.C5 * 2, 0.4, "triangle"]],
  broken: [[0, NOTE.A4, 0.16, "sawtooth"], [0.17, NOTE.F4, 0.16, "sawtooth"], [0.34, NOTE.C4, 0.36, "sawtooth"]],
};

export const CUE_NAMES = ["card", ...Object.keys(CUES)];

export function soundWanted() {
  return option("sound", true) !== false;
}

export function setSoundWanted(on) {
  setOption("sound", Boolean(on));
}

class Sound {
  constructor() {
    this.ctx = null;
    this.unlocked = false;
    /** Cues asked for and whether they sounded, for tests: [{cue, played}] (the last 100). */
    this.log = [];
    const unlock = () => {
      this.unlocked = true;
      if (soundWanted()) this.context()?.resume?.();
      window.removeEventListener("pointerdown", unlock, true);
      window.removeEventListener("keydown", unlock, true);
    };
    window.addEventListener("pointerdown", unlock, true);
    window.addEventListener("keydown", unlock, true);
  }

  get on() {
    return soundWanted();
  }

  set on(value) {
    setSoundWanted(value);
    if (value && this.unlocked) this.context()?.resume?.();
  }

  context() {
    if (this.ctx) return this.ctx;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    try {
      this.ctx = new Ctx();
    } catch {
      this.ctx = null;
    }
    return this.ctx;
  }

  /** Play a cue by name (see CUE_NAMES); nothing when muted or before the first touch. */
  play(cue) {
    const played = this.on && this.unlocked && this.synth(cue);
    this.log.push({ cue, played: Boolean(played) });
    if (this.log.length > 100) this.log.shift();
  }

  synth(cue) {
    const ctx = this.context();
    if (!ctx) return false;
    if (ctx.state === "suspended") ctx.resume?.();
    const t0 = ctx.currentTime + 0.01;
    const out = ctx.createGain();
    out.gain.value = VOLUME;
    out.connect(ctx.destination);
    if (cue === "card") {
      snap(ctx, out, t0);
      return true;
    }
    const tones = CUES[cue];
    if (!tones) return false;
    for (const [start, freq, length, wave] of tones) tone(ctx, out, t0 + start, freq, length, wave);
    return true;
  }
}

/** A short tone with a quick attack and a soft decay. */
function tone(ctx, out, at, freq, length, wave) {
  const osc = ctx.createOscillator();
  const env = ctx.createGain();
  osc.type = wave;
  osc.frequency.value = freq;
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(wave === "sine" || wave === "triangle" ? 1 : 0.35, at + 0.012);
  env.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(env).connect(out);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/** A card on the cloth: a burst of filtered noise, 60 ms. */
function snap(ctx, out, at) {
  const length = Math.floor(ctx.sampleRate * 0.06);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  let seed = 12345; // the same snap every time
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = ((seed / 0x7fffffff) * 2 - 1) * (1 - i / length) ** 3;
  }
  const noise = ctx.createBufferSource();
  noise.buffer = buffer;
  const band = ctx.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = 2400;
  band.Q.value = 0.9;
  noise.connect(band).connect(out);
  noise.start(at);
}

/** The app's one sound maker. */
export const sound = new Sound();
