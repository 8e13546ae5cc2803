// The board: the engine's drawing, its motion (a man's slide, a sowing) and its turn.

import { mark } from './clicking.js';
import { $, svgElement } from './games.js';
import { drawCursor, labelPlaces, places } from './keyboard.js';
import { gameInfo, state } from './state.js';

export function drawBoard(svg) {
  const board = $('board');
  board.innerHTML = svg;
  const [files, ranks] = gameInfo().board;
  board.dataset.shape = files > ranks ? 'wide' : 'square';
  orient();
  labelPlaces();
  drawCursor();
}

// The move just played, animated: the man's drawing slides from its start (a jump:
// over its pivot) to its square, as lichess animates moves; nothing for a pit, or for
// a person who asked for less motion.
const SLIDE_MS = 180;

export function slide() {
  const places = state.slide;
  state.slide = null;
  if (!places || matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  if (places.length === 1) {
    sow(places[0]);
    return;
  }
  const to = places[places.length - 1];
  const man = $('board').querySelector(`.man[data-square="${to}"]`);
  const drawing = man?.firstElementChild;
  const corner = (place) => {
    const square = document.getElementById(`sq-${place}`);
    return square ? [Number(square.getAttribute('x')), Number(square.getAttribute('y'))] : null;
  };
  const end = corner(to);
  const steps = places.slice(0, -1).map(corner);
  if (!drawing || !end || steps.some((p) => !p)) return;
  // A man of a flipped board is turned back upright about its centre: its drawing's
  // own axes point the other way.
  const sign = state.flipped ? -1 : 1;
  const offset = ([x, y]) => `translate(${sign * (x - end[0])}px, ${sign * (y - end[1])}px)`;
  const frames = [...steps.map((p) => ({ transform: offset(p) })), { transform: 'translate(0px, 0px)' }];
  drawing.animate(frames, { duration: SLIDE_MS * (frames.length - 1), easing: 'ease-out' });
  man.dataset.slidFrom = places[0];
}

// A sowing just played, counter by counter (the diagram's `.sowing` states it: the pits
// in the order the counters fell, every count before): a counter leaves the pit sown
// from and drops into each pit of the path in turn, the pit's count and its `+n`
// growing as it lands; the captured pits' rings and the stores' counts come at the
// end, as the diagram has them. A new drawing (the next move) ends it.
const SOW_STEP_MS = 110;
const SOW_MOST_MS = 1400;

function sow(origin) {
  const board = $('board');
  const sowing = board.querySelector('.sowing[data-path]');
  const from = document.getElementById(`pit-${origin}`);
  if (!sowing || !from) return;
  const path = sowing.dataset.path.split(' ').map((pit) => document.getElementById(`pit-${pit}`));
  const before = sowing.dataset.before.split(' ').map(Number);
  const storesBefore = sowing.dataset.storesBefore.split(' ').map(Number);
  if (path.some((pit) => !pit)) return;
  const pits = [...board.querySelectorAll('.pit')];
  const count = new Map(pits.map((pit, i) => [pit, before[i]]));
  const text = (element) => element.querySelector('text');
  // What the diagram shows at the end, put back once the counters are down.
  const finals = [...pits, ...board.querySelectorAll('.store')].map((el) => [text(el), text(el).textContent]);
  const badges = new Map([...sowing.querySelectorAll('.sown')].map((b) => [b.dataset.pit, b]));
  const late = [...sowing.querySelectorAll('.captured')];
  pits.forEach((pit) => (text(pit).textContent = String(count.get(pit))));
  ['south', 'north'].forEach((side, i) => {
    const store = document.getElementById(`store-${side}`);
    if (store) text(store).textContent = String(storesBefore[i]);
  });
  for (const mark of [...badges.values(), ...late]) mark.style.visibility = 'hidden';
  const centre = (pit) => {
    const circle = pit.querySelector('circle');
    return [Number(circle.getAttribute('cx')), Number(circle.getAttribute('cy'))];
  };
  const [x0, y0] = centre(from);
  const counter = svgElement('circle', { class: 'counter', cx: x0, cy: y0, r: 7, fill: '#2b1a0a', stroke: '#f4ead8', 'stroke-width': 2, 'pointer-events': 'none' });
  sowing.append(counter);
  const step = Math.min(SOW_STEP_MS, SOW_MOST_MS / path.length);
  const fell = new Map();
  let at = [x0, y0];
  const finish = () => {
    counter.remove();
    for (const [element, shown] of finals) element.textContent = shown;
    for (const mark of [...badges.values(), ...late]) mark.style.visibility = '';
  };
  const hop = (k) => {
    if (!sowing.isConnected) return;
    if (k === path.length) {
      finish();
      return;
    }
    const pit = path[k];
    const [x, y] = centre(pit);
    const offset = ([px, py]) => `translate(${px - x0}px, ${py - y0}px)`;
    const flight = counter.animate([{ transform: offset(at) }, { transform: offset([x, y]) }], { duration: step, easing: 'ease-in-out', fill: 'forwards' });
    at = [x, y];
    flight.finished.then(() => {
      if (!sowing.isConnected) return;
      count.set(pit, count.get(pit) + 1);
      text(pit).textContent = String(count.get(pit));
      const letter = pit.id.slice('pit-'.length);
      fell.set(letter, (fell.get(letter) ?? 0) + 1);
      const badge = badges.get(letter);
      if (badge) {
        badge.style.visibility = '';
        text(badge).textContent = `+${fell.get(letter)}`;
      }
      hop(k + 1);
    });
  };
  hop(0);
}

// Flipped, the board turns half round (CSS) and each man turns back upright about its
// square's centre. A man's own transform places it on its square, so the turn is
// added to that transform rather than set by CSS, which would replace it.
export function orient() {
  const board = $('board');
  board.classList.toggle('flipped', state.flipped);
  const square = board.querySelector('.square');
  const half = square ? Number(square.getAttribute('width')) / 2 : 0;
  for (const man of board.querySelectorAll('.man')) {
    if (man.dataset.at === undefined) man.dataset.at = man.getAttribute('transform') || '';
    const upright = state.flipped ? ` rotate(180 ${half} ${half})` : '';
    man.setAttribute('transform', `${man.dataset.at}${upright}`);
  }
}
