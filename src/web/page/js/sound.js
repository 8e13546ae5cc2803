// Sound.

import { $ } from './games.js';
import { state } from './state.js';

// Optional sounds, made by the page itself (no file to load): a short tone for a
// move, a lower and rougher one for a capture, two rising for a check, a chord at
// the end. Off until the person turns them on (browsers allow sound only then).
const SOUNDS = {
  move: [[520, 0, 0.07, 'sine']],
  capture: [[260, 0, 0.12, 'triangle'], [180, 0.03, 0.1, 'square']],
  check: [[660, 0, 0.08, 'sine'], [880, 0.09, 0.1, 'sine']],
  end: [[392, 0, 0.35, 'sine'], [494, 0, 0.35, 'sine'], [587, 0, 0.35, 'sine']],
};
let audio = null;

export function play(name) {
  document.body.dataset.sound = name;
  if (!state.soundOn || !audio) return;
  const now = audio.currentTime;
  for (const [frequency, at, length, type] of SOUNDS[name]) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = type;
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, now + at);
    gain.gain.exponentialRampToValueAtTime(0.001, now + at + length);
    tone.connect(gain).connect(audio.destination);
    tone.start(now + at);
    tone.stop(now + at + length);
  }
}

// Sound may start once the person has touched the page, when it is on.
export function wakeSound() {
  if (state.soundOn && !audio) audio = new AudioContext();
}

export function toggleSound() {
  state.soundOn = !state.soundOn;
  wakeSound();
  $('sound').setAttribute('aria-pressed', String(state.soundOn));
  try {
    localStorage.setItem('ludus-sound', state.soundOn ? 'on' : 'off');
  } catch {
    // Kept for this page only.
  }
}
