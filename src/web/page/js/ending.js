// Ending a game: resign, a draw, abort.

import { playMove } from './clicking.js';
import { stopClock } from './clocks.js';
import { engine } from './engine.js';
import { $ } from './games.js';
import { clearTransient, gameInfo, positionCommand, refresh, say, setState, state, stopThinking } from './state.js';

// The person who acts for the page: the person to move, else the only person seat;
// null when no seat, or more than one seat not to move, is a person's.
function actingPerson() {
  const at = state.moves.length;
  if (state.view === at && state.mover !== null && state.seats[state.mover] === 'person') return state.mover;
  const persons = state.seats.map((kind, i) => (kind === 'person' ? i : null)).filter((i) => i !== null);
  return persons.length === 1 ? persons[0] : null;
}

// The seats that have left a game that goes on without them, by the move shown.
export function leftSeats() {
  const leave = gameInfo().leave;
  if (!leave) return new Set();
  const leaving = new Set([leave.resign, leave.time]);
  return new Set(state.turns.filter((t) => !t.skip && t.ply <= state.view && leaving.has(t.text)).map((t) => t.seat));
}

// Which of resign, draw and abort apply now: a game going on, a person to act; abort
// before every player has moved, resign and draw after. A draw is offered between two
// players only. In a game that goes on without a player who leaves (`describe` names
// its `leave` moves), resigning is leaving, which a player does on its own turn.
export function drawControls() {
  const players = gameInfo().players;
  const leave = gameInfo().leave;
  const going = !state.ended && state.clock.flag === null && !state.endedByRules;
  const person = actingPerson();
  const early = state.moves.length < players.length;
  const atTurn = person !== null && person === state.mover && state.view === state.moves.length;
  $('abort').hidden = !early;
  $('resign').hidden = early;
  $('offer-draw').hidden = early || players.length !== 2;
  $('abort').disabled = !going || person === null;
  $('offer-draw').disabled = !going || person === null;
  $('resign').disabled = !going || (leave ? !atTurn : person === null);
  $('resign').title = leave
    ? 'Leave the game on your turn: your men are taken off and the others play on'
    : 'Give up the game';
}

async function endGame(text) {
  await stopThinking();
  stopClock();
  state.view = state.moves.length;
  state.ended = { text };
  clearTransient();
  await refresh();
}

export async function resign() {
  const person = actingPerson();
  if (person === null) return;
  const players = gameInfo().players;
  const leave = gameInfo().leave;
  if (leave) {
    if (person !== state.mover || state.view !== state.moves.length) return;
    await stopThinking();
    await playMove(leave.resign, 'resign');
    return;
  }
  await endGame(`Game over: ${players[1 - person]} wins (${players[person]} resigned)`);
}

export async function abort() {
  if (actingPerson() === null) return;
  await endGame('Game aborted: no result');
}

// ludus's view of the game's last position, for a draw offer: a short search's score,
// its own (centi-units; a mate as ±PROVEN·10).
async function ludusScore(seat) {
  await engine.request(positionCommand(state.moves.length));
  const score = await engine.evaluate('nodes 30000');
  // The score is the side to move's.
  return state.mover === seat ? score : -score;
}

// The draw is agreed when the other seat is a person who accepts, or ludus, which
// accepts when it does not think it stands better by more than a third of a unit.
const DRAW_MARGIN = 30;

export async function offerDraw() {
  const person = actingPerson();
  if (person === null) return;
  const players = gameInfo().players;
  const other = 1 - person;
  await stopThinking();
  state.view = state.moves.length;
  await refresh();
  let accepted;
  if (state.seats[other] === 'person') {
    accepted = await ask(`${players[person]} offers a draw. ${players[other]}: accept it?`, 'Accept the draw', 'Decline');
  } else {
    setState('loading');
    const score = await ludusScore(other);
    accepted = score <= DRAW_MARGIN;
    if (!accepted) say(`ludus (${players[other]}) declines the draw: it thinks it stands better`);
  }
  if (accepted) await endGame(`Game over: draw agreed`);
  else await refresh();
}

// A question with two answers, in the page (not a blocking dialog); true for `yes`.
export function ask(question, yes, no) {
  const box = $('question');
  $('question-text').textContent = question;
  $('answer-yes').textContent = yes;
  $('answer-no').textContent = no;
  box.hidden = false;
  $('answer-yes').focus();
  return new Promise((resolve) => {
    const answer = (value) => {
      box.hidden = true;
      $('answer-yes').onclick = null;
      $('answer-no').onclick = null;
      resolve(value);
    };
    $('answer-yes').onclick = () => answer(true);
    $('answer-no').onclick = () => answer(false);
  });
}
