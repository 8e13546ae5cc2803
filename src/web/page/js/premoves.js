// Premoves.

import { clearMarks, mark, personToMove, playMove } from './clicking.js';
import { gesture } from './dragging.js';
import { $ } from './games.js';
import { offerChoice } from './keyboard.js';
import { fromOf, gameInfo, say, state, toOf } from './state.js';

// As on lichess, a person facing ludus (two players) may choose their next move while
// ludus thinks: a man of their own, then where it goes. It is played as soon as it is
// their turn if it is legal then (a promotion asks), else gesture.dropped with a message. A
// click on the man again, or anywhere else than a square, cancels it.
export function canPremove() {
  const players = gameInfo().players;
  return players.length === 2 && state.thinking && !state.over && state.mover !== null &&
    state.view === state.moves.length && state.seats[1 - state.mover] === 'person';
}

export function choosePremove(square) {
  const person = gameInfo().players[1 - state.mover];
  const from = state.premoveFrom;
  clearMarks();
  if (from === null || from === undefined) {
    state.premove = null;
    if (!$('board').querySelector(`.man.${person}[data-square="${square}"]`)) {
      say(`ludus is thinking; a premove starts from a man of ${person}'s`);
      return;
    }
    state.premoveFrom = square;
    mark([square], 'selected');
    say(`premove from ${square}: where to?`);
    return;
  }
  state.premoveFrom = null;
  if (square === from) {
    say('premove cancelled');
    return;
  }
  state.premove = { from, to: square };
  mark([from, square], 'premove');
  say(`premove ${from} to ${square}: played when it is ${person}'s turn, if legal then`);
}

// At the person's turn: the premove waiting, played or gesture.dropped.
export async function playPremove() {
  const premove = state.premove;
  state.premove = null;
  state.premoveFrom = null;
  if (!premove || !personToMove() || state.view !== state.moves.length) return;
  const choices = state.legal.filter((m) => fromOf(m) === premove.from && toOf(m) === premove.to);
  if (choices.length === 1) await playMove(choices[0], 'person');
  else if (choices.length > 1) await offerChoice(choices);
  else say(`the premove ${premove.from} to ${premove.to} is not legal now: gesture.dropped`, 'illegal');
}
