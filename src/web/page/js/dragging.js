// Moves by dragging.

import { placeAt, toggleDrawn } from './analysis.js';
import { choose, clickedSquare, movesFrom, personToMove } from './clicking.js';
import { $ } from './games.js';
import { say, state, toOf } from './state.js';

// As on lichess: pressing a man that can move chooses it at once (its targets show),
// the man follows the pointer, and letting go over a target plays there; let go
// elsewhere, it goes back and stays chosen. Pressing the man already chosen and letting
// go without moving lets it go.
export const gesture = {
  dragFrom: null, // the place pressed
  drawFrom: null, // where a right-drag (an arrow drawn) started
  swallowClick: false, // the click that follows a press handled here is not a second choice
  dropped: false, // a move being made by a drop: its man is on its square already, nothing slides
};

// A point of the viewport in the board's own coordinates (flipped or not).
function boardPoint(x, y) {
  const svg = $('board').querySelector('svg');
  const point = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM().inverse());
  return [point.x, point.y];
}

export function onPointerDown(event) {
  $('board').classList.remove('keyed');
  gesture.swallowClick = false;
  if (event.button === 2) {
    gesture.drawFrom = placeAt(event.clientX, event.clientY);
    return;
  }
  gesture.dragFrom = null;
  const at = event.button === 0 ? clickedSquare(event.target) : null;
  if (!at || !at.square || !personToMove()) return;
  if (!movesFrom(at.square).length) return;
  const man = $('board').querySelector(`.man[data-square="${at.square}"]`);
  if (!man) return;
  gesture.swallowClick = true;
  const wasChosen = state.selected === at.square;
  gesture.dragFrom = {
    square: at.square, x: event.clientX, y: event.clientY, man, wasChosen, moved: false,
    origin: man.getAttribute('transform') || '', start: boardPoint(event.clientX, event.clientY),
    pressed: wasChosen ? Promise.resolve() : choose({ square: at.square }),
  };
  $('board').setPointerCapture(event.pointerId);
}

export function onPointerMove(event) {
  const drag = gesture.dragFrom;
  if (!drag || !(event.buttons & 1)) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 4) return;
  if (!drag.moved) drag.man.parentNode.append(drag.man); // drawn over the other men
  drag.moved = true;
  const [x, y] = boardPoint(event.clientX, event.clientY);
  drag.man.classList.add('dragging');
  drag.man.setAttribute('transform', `translate(${x - drag.start[0]} ${y - drag.start[1]}) ${drag.origin}`);
}

export async function onPointerUp(event) {
  if (event.button === 2) {
    const start = gesture.drawFrom;
    gesture.drawFrom = null;
    const end = placeAt(event.clientX, event.clientY);
    if (start && end) toggleDrawn(start, end);
    return;
  }
  const drag = gesture.dragFrom;
  gesture.dragFrom = null;
  if (!drag) return;
  await drag.pressed;
  const putBack = () => {
    if (!drag.man.isConnected) return;
    drag.man.classList.remove('dragging');
    drag.man.setAttribute('transform', drag.origin);
  };
  if (!drag.moved) {
    if (drag.wasChosen) await choose({ square: drag.square });
    return;
  }
  const to = placeAt(event.clientX, event.clientY);
  putBack();
  if (!to || to === drag.square || state.selected !== drag.square) return;
  const lands = movesFrom(drag.square).some((m) => toOf(m) === to);
  if (lands) {
    gesture.dropped = true;
    try {
      await choose({ square: to });
    } finally {
      gesture.dropped = false;
    }
  }
  else say(`${drag.square} to ${to} is not a legal move`, 'illegal');
}
