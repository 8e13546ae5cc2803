// Moves by keyboard.

import { choose, clearMarks, personToMove, playMove } from './clicking.js';
import { engine } from './engine.js';
import { $, svgElement } from './games.js';
import { gameInfo, positionCommand, refresh, say, state, stopThinking, toOf } from './state.js';

// The places of the board a person chooses: squares, or pits.
export function places() {
  return [...document.querySelectorAll('#board [id^="sq-"], #board [id^="pit-"]')];
}

function placeOf(element) {
  return element.id.startsWith('pit-') ? { pit: element.id.slice(4) } : { square: element.id.slice(3) };
}

// Names for screen readers: each square with what stands on it ("e4, white pawn"),
// each pit with its counters; the drawings of the men themselves are not read.
export function labelPlaces() {
  for (const el of places()) {
    el.setAttribute('role', 'button');
    if (el.id.startsWith('pit-')) {
      el.setAttribute('aria-label', `pit ${el.id.slice(4)}, ${el.dataset.count} counters`);
      continue;
    }
    const square = el.id.slice(3);
    const man = document.querySelector(`#board .man[data-square="${square}"]`);
    const what = man ? [...man.classList].filter((c) => c !== 'man').join(' ') : 'empty';
    el.setAttribute('aria-label', `${square}, ${what}`);
  }
  for (const man of document.querySelectorAll('#board .man')) man.setAttribute('aria-hidden', 'true');
}

// The keyboard's cursor: a place of the board, outlined while the board has the focus.
export function drawCursor() {
  document.querySelectorAll('#board .cursor').forEach((el) => el.classList.remove('cursor'));
  const board = $('board');
  const at = state.cursor && document.getElementById(state.cursor);
  if (!at) {
    board.removeAttribute('aria-activedescendant');
    return;
  }
  at.classList.add('cursor');
  board.setAttribute('aria-activedescendant', state.cursor);
}

// The arrow keys move the cursor to the nearest place that way on the screen, so that
// they follow the board as drawn, flipped or not, square or pits.
function moveCursor(key) {
  const all = places();
  if (!all.length) return;
  const current = document.getElementById(state.cursor) || all[0];
  const centre = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2, size: Math.max(r.width, r.height) };
  };
  const from = centre(current);
  const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  let best = null;
  let bestDistance = Infinity;
  for (const el of all) {
    const to = centre(el);
    const along = (to.x - from.x) * dx + (to.y - from.y) * dy;
    const across = Math.abs((to.x - from.x) * dy + (to.y - from.y) * dx);
    if (along < from.size / 4 || across > from.size / 2) continue;
    if (along < bestDistance) {
      best = el;
      bestDistance = along;
    }
  }
  if (best) state.cursor = best.id;
  else if (!document.getElementById(state.cursor)) state.cursor = current.id;
  drawCursor();
}

export async function onBoardKey(event) {
  // The cursor shows once the keys are used, not for a click that gave the focus.
  $('board').classList.add('keyed');
  if (event.key.startsWith('Arrow')) {
    moveCursor(event.key);
  } else if (event.key === 'Enter' || event.key === ' ') {
    const at = document.getElementById(state.cursor);
    if (at) await choose(placeOf(at));
  } else if (event.key === 'Escape') {
    state.selected = null;
    clearMarks();
  } else {
    return;
  }
  event.preventDefault();
  event.stopPropagation();
}

// A move typed in any notation of the game (`Nab5`, `g8-f6xe4`, `C`).
export async function onMoveTyped(event) {
  event.preventDefault();
  const field = $('move-text');
  const text = field.value.trim();
  if (!text) return;
  if (!personToMove()) {
    say(state.over ? 'the game is over' : 'it is ludus\'s turn: wait, or choose a person for this seat');
    return;
  }
  await stopThinking();
  if (await playMove(text, 'person')) field.value = '';
}

// A choice between moves with the same places (a promotion), each named in the
// notation chosen.
// Several moves between the same two places (a promotion): a button each, with the
// man it leaves there as the engine draws it (the diagram after the move, the man on
// its target) and its name in the notation chosen.
export async function offerChoice(moves) {
  const choice = $('choice');
  choice.innerHTML = '';
  choice.append('Which move: ');
  const setup = positionCommand(state.view);
  const join = setup.includes(' moves ') ? ' ' : ' moves ';
  const pictures = [];
  for (const m of moves) {
    await engine.request(setup + join + m);
    pictures.push(await engine.request('diagram svg'));
  }
  await engine.request(setup);
  moves.forEach((m, i) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.move = m;
    const name = state.named.get(m) || m;
    button.setAttribute('aria-label', name);
    const drawn = pictures[i].ok
      ? new DOMParser().parseFromString(pictures[i].text, 'image/svg+xml')
      : null;
    const man = drawn?.querySelector(`.man[data-square="${toOf(m)}"] > g`);
    const square = drawn?.getElementById(`sq-${toOf(m)}`);
    if (man && square) {
      const size = square.getAttribute('width');
      const picture = svgElement('svg', { viewBox: `0 0 ${size} ${size}`, width: 36, height: 36,
        'aria-hidden': 'true', class: 'piece' });
      picture.append(document.importNode(man, true));
      button.append(picture);
    }
    const label = document.createElement('span');
    label.textContent = name;
    button.append(label);
    button.addEventListener('click', async () => {
      choice.hidden = true;
      state.selected = null;
      clearMarks();
      await playMove(m, 'person');
    });
    choice.append(button);
  });
  choice.hidden = false;
}

// What a diagram can draw besides the position (the games' layers): a box each, and
// when it is ticked, what it shows.
export function drawLayerChoices() {
  const choices = $('layers');
  const legends = $('layer-legends');
  choices.innerHTML = '';
  legends.innerHTML = '';
  for (const [name, help] of gameInfo().layers) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = `layer-${name}`;
    label.append(box, ` Show ${name}`);
    choices.append(label);
    const legend = document.createElement('p');
    legend.id = `layer-${name}-legend`;
    legend.className = 'help';
    legend.hidden = true;
    legend.textContent = `${name[0].toUpperCase()}${name.slice(1)}: ${help}`;
    legends.append(legend);
    box.addEventListener('change', () => {
      legend.hidden = !box.checked;
      refresh();
    });
  }
}
