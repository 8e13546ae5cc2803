// A game that survives a reload.

import { orient } from './board.js';
import { readClock, remaining, resetClocks } from './clocks.js';
import { engine } from './engine.js';
import { $, seatKinds } from './games.js';
import { clearTransient, gameInfo, refresh, say, state, stopThinking } from './state.js';

// The game on the page is kept in the browser (local storage) after every change and
// when the page goes away, and the address names the game, its start and its moves:
// a reload, or the address opened again, brings the game back with its seats, clocks
// and board orientation. The time the page was away is not charged to any clock.
const SAVED = 'ludus-game';

export function save() {
  if (!state.game) return;
  const c = state.clock;
  const saved = {
    game: state.game, start: state.start, moves: state.moves, view: state.view,
    seats: state.seats, flipped: state.flipped, clock: $('clock').value,
    left: c.base === null ? null : gameInfo().players.map((_, i) => Math.max(0, Math.round(remaining(i)))),
    started: c.started, flag: c.flag, ended: state.ended,
  };
  try {
    localStorage.setItem(SAVED, JSON.stringify(saved));
  } catch {
    // Storage refused (private mode, full): the address still names the game.
  }
  const params = new URLSearchParams({ game: state.game });
  if (state.start !== null) params.set('fen', state.start);
  if (state.moves.length) params.set('moves', state.moves.join(' '));
  const address = `?${params}`;
  if (location.search !== address) history.replaceState(null, '', address);
}

export function loadSaved() {
  try {
    const saved = JSON.parse(localStorage.getItem(SAVED));
    return saved && typeof saved === 'object' && Array.isArray(saved.moves) ? saved : null;
  } catch {
    return null;
  }
}

// Brings back the game the address names, or else the one kept in the browser: its
// moves checked by the engine first (a game it refuses is not restored, and says why).
export async function restore(params, saved) {
  const fromAddress = params.has('moves') || params.has('fen');
  const start = fromAddress ? params.get('fen') : saved?.start ?? null;
  const moves = fromAddress
    ? (params.get('moves') || '').split(/\s+/).filter((m) => m)
    : saved?.moves ?? [];
  if (start === null && !moves.length) return;
  const setup = start === null ? 'startpos' : `fen ${start}`;
  const check = await engine.request(moves.length ? `position ${setup} moves ${moves.join(' ')}` : `position ${setup}`);
  if (!check.ok) {
    say(`the game in the address could not be restored: ${check.text}`, 'error');
    await refresh();
    return;
  }
  await stopThinking();
  state.start = start;
  state.moves = moves;
  state.view = moves.length;
  // The seats, clocks and orientation come back with the game they were kept with.
  const same = saved && saved.game === state.game && saved.start === start &&
    JSON.stringify(saved.moves) === JSON.stringify(moves);
  if (same) {
    state.view = Math.max(0, Math.min(moves.length, Number(saved.view) || 0));
    if (Array.isArray(saved.seats) && saved.seats.length === state.seats.length) {
      const kinds = new Set(seatKinds(gameInfo()).map(([value]) => value));
      state.seats = saved.seats.map((kind, i) => (kinds.has(kind) ? kind : state.seats[i]));
    }
    state.flipped = Boolean(saved.flipped);
    orient();
    const control = typeof saved.clock === 'string' ? readClock(saved.clock) : null;
    if (control) {
      $('clock').value = saved.clock;
      Object.assign(state.clock, { base: control.base, inc: control.inc, perMove: control.perMove });
      resetClocks();
      if (Array.isArray(saved.left) && saved.left.length === state.clock.left.length) {
        state.clock.left = saved.left.map((ms) => Math.max(0, Number(ms) || 0));
      }
      state.clock.started = Boolean(saved.started);
      state.clock.flag = Number.isInteger(saved.flag) ? saved.flag : null;
    }
    if (typeof saved.ended?.text === 'string') state.ended = { text: saved.ended.text };
  } else {
    // A game from an address alone: shown at its end, everyone a person, so that
    // nobody moves in it before it is looked at.
    state.seats = state.seats.map(() => 'person');
  }
  clearTransient();
  say(`game restored: ${moves.length} move${moves.length === 1 ? '' : 's'}`);
  await refresh();
}
