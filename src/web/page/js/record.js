// Records read as turns, and the move list.

import { engine } from './engine.js';
import { $ } from './games.js';
import { stepTo } from './history.js';
import { paint } from './panels.js';
import { MARKS, currentReview, reviewNote } from './review.js';
import { gameInfo, positionCommand, state } from './state.js';

// A record (records.md) read as turns, in order: a move (its text as the record
// writes it, with its marks) or a skipped turn, each with its round number and seat.
// `first` is the seat of the first turn; reading stops after `plies` moves or at the
// end of play (a result, a comment, prose).
function recordTurns(text, players, first, plies = Infinity) {
  const words = text.split(/\s+/).filter((w) => w);
  const turns = [];
  let round = null;
  let seat = 0;
  let moves = 0;
  // The header is what comes before the first move number.
  let i = words.findIndex((w) => /^\d+\.$/.test(w));
  if (i < 0) return turns;
  for (; i < words.length && moves < plies; i++) {
    const word = words[i];
    if (/^\d+\.$/.test(word)) {
      round = Number(word.slice(0, -1));
      seat = 0;
    } else if (/^(…|\.\.\.|\.\.)$/.test(word)) {
      seat = first;
    } else if (word === '-') {
      turns.push({ round, seat, skip: true });
      seat = (seat + 1) % players;
    } else if (/^(\*|1-0|0-1|1\/2-1\/2|½-½)$/.test(word) || /^[{;(]/.test(word)) {
      break;
    } else {
      turns.push({ round, seat, text: word.replace(/\.$/, ''), ply: ++moves });
      seat = (seat + 1) % players;
    }
  }
  return turns;
}

// The moves of a record as the engine reads them (marks taken off).
export function recordMoves(text, players, first) {
  return recordTurns(text, players, first)
    .filter((t) => !t.skip)
    .map((t) => t.text.replace(/[×#=+]+$/, ''));
}

// The whole game's record in the chosen notation, read again only when the moves or
// the notation change (so that stepping back keeps the notation of later moves); the
// engine is left on the position shown.
export async function readRecord() {
  const key = JSON.stringify([state.start, state.moves, $('notation').value]);
  if (state.recordKey === key) return;
  const [, first, , record, last] = await Promise.all([
    engine.request(positionCommand(0)),
    engine.request('to_move'),
    engine.request(positionCommand(state.moves.length)),
    engine.request(`record ${$('notation').value}`),
    engine.request('to_move'),
    engine.request(positionCommand(state.view)),
  ]);
  const players = gameInfo().players;
  const seat = Math.max(0, players.indexOf(first.text));
  state.turns = record.ok ? recordTurns(record.text, players.length, seat, state.moves.length) : [];
  if (state.turns.filter((t) => !t.skip).length !== state.moves.length) {
    // Unreadable: the moves as played, numbered by the seat that played them.
    state.turns = state.moves.map((m, i) => {
      const at = seat + i;
      return { round: Math.floor(at / players.length) + 1, seat: at % players.length, text: m, ply: i + 1 };
    });
  }
  // Turns the rules skip after the last move (a player with no move) are written by a
  // record only once a move follows them: the list shows them at once.
  const end = players.indexOf(last.text);
  const final = state.turns[state.turns.length - 1];
  if (final && end >= 0) {
    let { round } = final;
    for (let seat = (final.seat + 1) % players.length; seat !== end; seat = (seat + 1) % players.length) {
      if (seat === 0) round++;
      state.turns.push({ round, seat, skip: true, pending: true });
    }
  }
  state.recordKey = key;
}

// The moves by rounds: a row a round, its number, then a column a player (in its
// colour), `-` for a skipped turn.
export function drawMoves() {
  const list = $('moves');
  list.innerHTML = '';
  const players = gameInfo().players;
  list.style.gridTemplateColumns = `auto repeat(${players.length}, minmax(0, 1fr))`;
  if (players.length > 2) {
    // More than two players: the columns are headed by the players.
    list.append(document.createElement('span'));
    for (const player of players) {
      const head = document.createElement('span');
      head.className = 'player';
      head.dataset.player = player;
      paint(head, players.indexOf(player));
      head.textContent = player;
      list.append(head);
    }
  }
  let row = null;
  let column = 0;
  for (const turn of state.turns) {
    if (turn.round !== row) {
      row = turn.round;
      column = 0;
      const number = document.createElement('span');
      number.className = 'number';
      number.textContent = `${turn.round}.`;
      list.append(number);
    }
    for (; column < turn.seat; column++) list.append(document.createElement('span'));
    column = turn.seat + 1;
    if (turn.skip) {
      const skip = document.createElement('span');
      skip.className = 'skip';
      skip.textContent = '-';
      skip.title = `${players[turn.seat]}'s turn is skipped`;
      skip.dataset.player = players[turn.seat];
      paint(skip, turn.seat);
      list.append(skip);
      continue;
    }
    const i = turn.ply - 1;
    const move = document.createElement('button');
    move.type = 'button';
    move.className = 'move';
    move.textContent = turn.text;
    move.dataset.ply = String(turn.ply);
    move.dataset.move = state.moves[i];
    move.dataset.player = players[turn.seat];
    paint(move, turn.seat);
    move.setAttribute('aria-label', `${turn.round}. ${players[turn.seat]} ${turn.text}`);
    // A move that leaves the game says so (the list writes it as the game does).
    const leave = gameInfo().leave;
    const left = leave && { [leave.resign]: 'resigned and left the game', [leave.time]: 'ran out of time and left the game' }[state.moves[i]];
    if (left) {
      move.title = `${players[turn.seat]} ${left}`;
      move.setAttribute('aria-label', `${turn.round}. ${players[turn.seat]} ${left}`);
    }
    if (turn.ply === state.view) move.classList.add('current');
    if (turn.ply > state.view) move.classList.add('later');
    const judged = currentReview()?.moves[i];
    if (judged?.mark) {
      move.dataset.mark = judged.mark;
      move.textContent += MARKS[judged.mark].symbol;
      move.title = reviewNote(judged);
      move.setAttribute('aria-label', `${move.getAttribute('aria-label')}, ${judged.mark}`);
    }
    move.addEventListener('click', () => stepTo(turn.ply));
    list.append(move);
  }
  followCurrent(list);
}

// Scrolls the move list (not the page) so that the move shown is in view: the last
// one at the end of a long game too.
function followCurrent(list) {
  const current = list.querySelector('.current') ?? (state.view === 0 ? list.firstElementChild : null);
  if (!current) return;
  const top = current.offsetTop;
  const bottom = top + current.offsetHeight;
  if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
}
