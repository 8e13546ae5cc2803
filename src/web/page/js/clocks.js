// Clocks.

import { playMove } from './clicking.js';
import { leftSeats } from './ending.js';
import { $ } from './games.js';
import { paint } from './panels.js';
import { gameInfo, refresh, say, state, stopThinking } from './state.js';

// Clocks are the page's: a time control (minutes + seconds added a move) gives every
// seat the same time; the seat to move at the end of the game spends it, from the first
// move on (the first move is free); a move adds the increment, or with a time per move
// gives the full time back. ludus is told the clocks in its `go` (`time <player> <ms>
// inc <player> <ms>`, and `movestogo 1` for a time per move), and its thinking counts
// as a person's does. A clock that runs out ends the game.

// `5+3` (minutes, then seconds a move; decimals allowed) or `30/move` (seconds for
// every move); null for none (empty or `none`); undefined when unreadable.
export function readClock(text) {
  const t = text.trim().toLowerCase();
  if (t === '' || t === 'none' || t === '-') return null;
  const perMove = /^(\d+(?:\.\d+)?)\s*\/\s*move$/.exec(t);
  if (perMove && Number(perMove[1]) > 0) {
    return { base: Math.round(Number(perMove[1]) * 1000), inc: 0, perMove: true };
  }
  const m = /^(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)$/.exec(t);
  if (!m || Number(m[1]) <= 0) return undefined;
  return { base: Math.round(Number(m[1]) * 60000), inc: Math.round(Number(m[2]) * 1000), perMove: false };
}

export function resetClocks() {
  const c = state.clock;
  c.left = gameInfo().players.map(() => c.base);
  c.running = null;
  c.since = null;
  c.flag = null;
  c.started = false;
  $('clocks').innerHTML = '';
  drawClocks();
}

export function remaining(seat) {
  const c = state.clock;
  const spent = c.running === seat && c.since !== null ? performance.now() - c.since : 0;
  return c.left[seat] - spent;
}

export function stopClock() {
  const c = state.clock;
  if (c.running !== null) c.left[c.running] = remaining(c.running);
  c.running = null;
  c.since = null;
}

// A move was played: the seat whose clock ran pays for it and gains the increment.
export function chargeMove() {
  const c = state.clock;
  if (c.base === null) return;
  const seat = c.running;
  stopClock();
  if (seat !== null) c.left[seat] = c.perMove ? c.base : c.left[seat] + c.inc;
  c.started = true;
}

// The clock of the seat to move at the end of the game runs (none while paused, over,
// or before the first move); called whenever that may have changed.
export function runClock() {
  const c = state.clock;
  if (c.base === null) return;
  if (state.view !== state.moves.length) {
    // Earlier moves are shown: ludus cannot think (its search is stopped), so its
    // clock waits too; a person's runs on, as on lichess.
    if (c.running !== null && state.seats[c.running] !== 'person') {
      stopClock();
      drawClocks();
    }
    return;
  }
  const seat = c.started && !state.paused && !state.analysis && !state.over ? state.mover : null;
  if (seat === c.running) return;
  stopClock();
  c.running = seat;
  c.since = seat === null ? null : performance.now();
  drawClocks();
}

function clockText(ms) {
  const left = Math.max(0, ms);
  if (left < 10000) return `0:0${(Math.floor(left / 100) / 10).toFixed(1)}`;
  const seconds = Math.floor(left / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor(seconds / 60) % 60;
  const ss = String(seconds % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export function drawClocks() {
  const box = $('clocks');
  const c = state.clock;
  box.hidden = c.base === null;
  if (c.base === null || !state.game) return;
  const players = gameInfo().players;
  if (box.children.length !== players.length) {
    box.innerHTML = '';
    players.forEach((player, i) => {
      const clock = document.createElement('span');
      clock.className = 'clock';
      clock.dataset.player = player;
      paint(clock, i);
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = player;
      const time = document.createElement('time');
      clock.append(name, ' ', time);
      box.append(clock);
    });
  }
  const gone = leftSeats();
  players.forEach((player, i) => {
    const clock = box.children[i];
    const left = remaining(i);
    // A player who left is struck through: its clock never runs again.
    clock.classList.toggle('left', gone.has(i));
    clock.querySelector('time').textContent = clockText(left);
    clock.classList.toggle('running', c.running === i);
    clock.classList.toggle('low', left < 10000);
    clock.classList.toggle('flagged', c.flag === i);
    clock.dataset.ms = String(Math.max(0, Math.round(left)));
  });
}

// Every tenth of a second: the clocks redrawn, and a clock that ran out ends the game,
// or, in a game that goes on without a player who leaves, makes that player leave.
export async function tick() {
  const c = state.clock;
  if (c.base === null) return;
  if (c.running !== null && c.flag === null && remaining(c.running) <= 0) {
    const seat = c.running;
    stopClock();
    c.left[seat] = 0;
    const leave = gameInfo().leave;
    if (!leave) c.flag = seat;
    drawClocks();
    await stopThinking();
    if (leave) {
      // It leaves at the game's last position, whatever the board shows.
      state.view = state.moves.length;
      await playMove(leave.time, 'clock');
      return;
    }
    await refresh();
    return;
  }
  drawClocks();
}

export async function setClock() {
  const text = $('clock').value;
  const control = readClock(text);
  if (control === undefined) {
    say(`unreadable time control: ${text.trim()} (minutes + seconds a move, as 5+3; seconds a move, as 30/move; or none)`, 'error');
    return;
  }
  await stopThinking();
  state.clock.base = control ? control.base : null;
  state.clock.inc = control ? control.inc : 0;
  state.clock.perMove = control ? control.perMove : false;
  resetClocks();
  say(control ? `clocks: ${text.trim()} for every player, from the next move` : 'no clocks');
  await refresh();
}

// A seat's `go` limits: its own, and the clocks when there are clocks.
export function limitsFor(seat) {
  const kind = seat.startsWith('level ') ? 'clock' : seat;
  const c = state.clock;
  if (c.base === null) return kind === 'clock' ? 'movetime 1000' : kind;
  const clocks = gameInfo().players
    .map((p, i) => `time ${p} ${Math.max(1, Math.floor(remaining(i)))} inc ${p} ${c.inc}`)
    .join(' ') + (c.perMove ? ' movestogo 1' : '');
  return kind === 'clock' ? clocks : `${kind} ${clocks}`;
}
