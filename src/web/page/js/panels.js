// Beside the board: whose turn, the result, the seats, how to play.

import { orient } from './board.js';
import { drawControls, leftSeats } from './ending.js';
import { $, seatKinds } from './games.js';
import { gameInfo, refresh, state, stopThinking } from './state.js';

// Gives an element the colour of the player in seat `seat` (CSS: var(--player)).
export function paint(element, seat) {
  element.style.setProperty('--player', gameInfo().colours[seat] || '#888');
}

// Whose turn it is, next to the board: the player (in its colour), and whether ludus
// thinks for it.
export function drawTurn() {
  const turn = $('turn');
  const players = gameInfo().players;
  const name = (i) => players[i][0].toUpperCase() + players[i].slice(1);
  if (state.over) {
    turn.textContent = 'Game over';
    delete turn.dataset.player;
    return;
  }
  turn.dataset.player = players[state.mover];
  paint(turn, state.mover);
  const seat = state.seats[state.mover];
  let text = `${name(state.mover)} to move`;
  if (state.view !== state.moves.length) {
    text += ` (move ${state.view} of ${state.moves.length} shown)`;
  } else if (state.analysis) {
    text += ' (analysis: nobody moves for ludus)';
  } else if (state.thinking) {
    text = `ludus (${name(state.mover)}) is thinking`;
  } else if (seat !== 'person') {
    text += state.paused ? ' (ludus, paused)' : ' (ludus)';
  }
  turn.textContent = text;
}

export function drawResult(status) {
  const result = $('result');
  const flag = state.clock.flag;
  drawControls();
  if (state.ended) {
    result.hidden = false;
    result.textContent = state.ended.text;
    $('board').dataset.status = 'over';
  } else if (flag !== null) {
    // Lost on time: the other wins (with more players, one who runs out leaves the
    // game instead, and the game goes on: tick).
    const players = gameInfo().players;
    result.hidden = false;
    result.textContent = `Game over: ${players[1 - flag]} wins (${players[flag]} lost on time)`;
    $('board').dataset.status = 'over';
  } else if (status.startsWith('ongoing')) {
    result.hidden = true;
    result.textContent = '';
    $('board').dataset.status = 'ongoing';
  } else {
    result.hidden = false;
    result.textContent = `Game over: ${status}`;
    $('board').dataset.status = 'over';
  }
}

// The seats' choices, made once per game (redrawing them would lose a choice being
// made); the player to move is marked.
export function drawSeats() {
  const seats = $('seats');
  if (seats.dataset.game !== state.game) {
    seats.dataset.game = state.game;
    seats.querySelectorAll('.seat').forEach((s) => s.remove());
    gameInfo().players.forEach((player, i) => {
      const label = document.createElement('label');
      label.className = 'seat';
      paint(label, i);
      label.append(`${player} `);
      const select = document.createElement('select');
      select.id = `seat-${i}`;
      select.dataset.player = player;
      for (const [value, text] of seatKinds(gameInfo())) select.add(new Option(text, value));
      select.addEventListener('change', async () => {
        state.seats[i] = select.value;
        turnForThePerson();
        // The keys go back to the page (← → step), not to this choice.
        select.blur();
        await stopThinking();
        await refresh();
      });
      label.append(select);
      seats.append(label);
    });
  }
  const gone = leftSeats();
  seats.querySelectorAll('.seat').forEach((label, i) => {
    label.classList.toggle('to-move', i === state.mover);
    label.classList.toggle('left', gone.has(i));
    label.title = gone.has(i) ? `${gameInfo().players[i]} has left the game` : '';
    label.querySelector('select').value = state.seats[i];
  });
}

// Two players, one of them a person: the board turns so that the person's side is at
// the bottom, as lichess does when one plays Black.
export function turnForThePerson() {
  const persons = state.seats.map((kind, i) => (kind === 'person' ? i : null)).filter((i) => i !== null);
  if (gameInfo().players.length !== 2 || persons.length !== 1) return;
  const flipped = persons[0] === 1;
  if (flipped !== state.flipped) {
    state.flipped = flipped;
    orient();
  }
}

// A newcomer's help: the rules' essentials from `describe`, the notation the move list
// uses, and a link to the whole rules the server serves.
export function drawHowToPlay() {
  const game = gameInfo();
  $('howto-title').textContent = game.title;
  const list = $('howto-list');
  list.innerHTML = '';
  for (const sentence of game.howto) {
    const item = document.createElement('li');
    item.textContent = sentence;
    list.append(item);
  }
  const notation = $('notation');
  $('howto-notation').textContent = notation.options[notation.selectedIndex]?.text ?? '';
  $('rules-link').href = `/rules/${encodeURIComponent(game.name)}`;
}
