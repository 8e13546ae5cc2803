// Moves by clicking.

import { chargeMove } from './clocks.js';
import { gesture } from './dragging.js';
import { ask } from './ending.js';
import { engine } from './engine.js';
import { $, svgElement } from './games.js';
import { offerChoice } from './keyboard.js';
import { canPremove, choosePremove } from './premoves.js';
import { play } from './sound.js';
import { fromOf, positionCommand, refresh, say, setState, state, stopThinking, toOf } from './state.js';

// Asks whether a move made at an earlier position may replace the `later` moves
// after it; true when the person says so.
function askReplace(later) {
  const moves = `${later} move${later === 1 ? '' : 's'}`;
  return ask(`This move replaces the ${moves} played after this position.`, 'Replace them', 'Keep the game');
}

// Plays a move (any notation the game reads) at the position shown; false if refused.
export async function playMove(text, by) {
  const later = state.moves.length - state.view;
  if (by === 'person' && later > 0 && !(await askReplace(later))) {
    say('the game is kept; → or End goes back to its last move');
    return false;
  }
  setState('loading');
  // A move played while earlier moves are shown replaces the moves after them.
  const set = await engine.request(positionCommand(state.view));
  if (!set.ok) {
    say(set.text, 'error');
    setState('idle');
    return false;
  }
  const played = await engine.request(`play ${text}`);
  if (!played.ok) {
    say(played.text, 'error');
    setState('idle');
    return false;
  }
  chargeMove();
  // The man slides from where it stood to where it lands (not after a drag: it is
  // there already).
  state.slide = gesture.dropped ? null : state.places.get(played.text) ?? null;
  // A capture, told by a man on the target before the move (the board not redrawn yet).
  const at = state.places.get(played.text) ?? [];
  const target = at[at.length - 1];
  state.sound = target && $('board').querySelector(`.man[data-square="${target}"]`) ? 'capture' : 'move';
  state.moves = state.moves.slice(0, state.view);
  state.moves.push(played.text);
  state.view = state.moves.length;
  state.played = { ply: state.view, by, text: played.text };
  await refresh();
  return true;
}

export function personToMove() {
  return !state.over && state.mover !== null && state.seats[state.mover] === 'person';
}

export function clickedSquare(target) {
  const pit = target.closest('[id^="pit-"]');
  if (pit) return { pit: pit.id.slice(4) };
  const man = target.closest('[data-square]');
  if (man) return { square: man.dataset.square };
  const square = target.closest('[id^="sq-"]');
  if (square) return { square: square.id.slice(3) };
  return null;
}

// Marks places of the board (`selected`, `target`) by class, and draws each mark over
// the men (pointer-free), as lichess does: the chosen square framed, a quiet target a
// dot, a capture (a man stands there) a ring, each dark with a white line so that it
// shows on every square colour; a jump's pivots hollow rings, dashed.
export function mark(squares, kind) {
  const svg = $('board').querySelector('svg');
  let overlay = svg?.querySelector('#marks');
  if (svg && !overlay) {
    overlay = svgElement('g', { id: 'marks' });
    svg.append(overlay);
  }
  for (const sq of squares) {
    const el = document.getElementById(`sq-${sq}`);
    if (!el) continue;
    el.classList.add(kind);
    if (!overlay) continue;
    const x = Number(el.getAttribute('x'));
    const y = Number(el.getAttribute('y'));
    const size = Number(el.getAttribute('width'));
    const [cx, cy] = [x + size / 2, y + size / 2];
    const shape = (name, attributes) => overlay.append(svgElement(name, { ...attributes, 'data-square': sq }));
    if (kind === 'selected') {
      shape('rect', { x: x + 2, y: y + 2, width: size - 4, height: size - 4, class: 'chosen outer' });
      shape('rect', { x: x + 5, y: y + 5, width: size - 10, height: size - 10, class: 'chosen inner' });
    } else if (kind === 'target') {
      const man = $('board').querySelector(`.man[data-square="${sq}"]`);
      if (man) {
        shape('circle', { cx, cy, r: size * 0.44, class: 'capture outer' });
        shape('circle', { cx, cy, r: size * 0.44, class: 'capture inner' });
      } else {
        shape('circle', { cx, cy, r: size * 0.16, class: 'quiet' });
      }
    } else if (kind === 'premove') {
      shape('rect', { x: x + 3, y: y + 3, width: size - 6, height: size - 6, class: 'premove' });
    } else if (kind === 'pivot') {
      shape('circle', { cx, cy, r: size * 0.3, class: 'pivot' });
    }
  }
}

export function clearMarks() {
  document.querySelectorAll('#board .selected, #board .target, #board .pivot, #board .premove').forEach((el) => {
    el.classList.remove('selected', 'target', 'pivot', 'premove');
  });
  document.querySelector('#board #marks')?.remove();
}

export function movesFrom(square) {
  return state.legal.filter((m) => fromOf(m) === square);
}

export async function onBoardClick(event) {
  // A press on a man already did what its click would (see onPointerDown).
  if (gesture.swallowClick) {
    gesture.swallowClick = false;
    return;
  }
  const at = clickedSquare(event.target);
  if (!at) return;
  await choose(at);
}

// A square or pit chosen, by a click or by Enter on the keyboard's cursor.
export async function choose(at) {
  // A choice offered for an earlier selection (a promotion) goes with it.
  $('choice').hidden = true;
  if (canPremove() && at.square !== undefined) {
    choosePremove(at.square);
    return;
  }
  if (state.view !== state.moves.length && !personToMove()) {
    say('ludus is to move here; step to the end, or choose a person for this seat');
    return;
  }
  if (!personToMove()) {
    say(state.over ? 'the game is over' : 'it is ludus\'s turn: wait, or choose a person for this seat');
    return;
  }
  if (at.pit !== undefined) {
    const sown = state.legal.filter((m) => fromOf(m) === null && toOf(m) === at.pit);
    if (sown.length) {
      await stopThinking();
      await playMove(sown[0], 'person');
    } else {
      const legal = state.legal.map((m) => state.named.get(m)).join(' ') || 'none';
      say(`pit ${at.pit} cannot be sown now (legal: ${legal})`, 'illegal');
    }
    return;
  }
  const square = at.square;
  if (state.selected) {
    const choices = movesFrom(state.selected).filter((m) => toOf(m) === square);
    if (choices.length === 1) {
      state.selected = null;
      await playMove(choices[0], 'person');
      return;
    }
    if (choices.length > 1) {
      await offerChoice(choices);
      return;
    }
    if (square === state.selected) {
      state.selected = null;
      clearMarks();
      return;
    }
  }
  const from = movesFrom(square);
  clearMarks();
  if (from.length === 0) {
    const was = state.selected;
    state.selected = null;
    say(was ? `${was} to ${square} is not a legal move` : `no legal move from ${square}`, 'illegal');
    return;
  }
  state.selected = square;
  mark([square], 'selected');
  mark(from.map(toOf), 'target');
  // A move through a pivot (a jump over a man): each target's pivot too.
  mark([...new Set(from.map((m) => state.places.get(m)).filter((at) => at.length > 2).map((at) => at[1]))], 'pivot');
  say(`from ${square} to ${[...new Set(from.map(toOf))].join(', ')}`);
}
