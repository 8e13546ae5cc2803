// Stepping, undo, positions and records.

import { orient } from './board.js';
import { resetClocks } from './clocks.js';
import { ask, leftSeats } from './ending.js';
import { engine } from './engine.js';
import { $ } from './games.js';
import { drawLayerChoices } from './keyboard.js';
import { drawHowToPlay, turnForThePerson } from './panels.js';
import { recordMoves } from './record.js';
import { play } from './sound.js';
import { clearTransient, gameInfo, positionCommand, refresh, say, state, stopThinking } from './state.js';

export async function stepTo(view) {
  const to = Math.max(0, Math.min(state.moves.length, view));
  if (to === state.view) return;
  await stopThinking();
  state.view = to;
  clearTransient();
  await refresh();
}

export async function undo() {
  if (state.ended || state.clock.flag !== null) {
    // As on lichess: no take-back once the players (or a clock) have ended the game.
    say(`the game is over (${(state.ended?.text ?? $('result').textContent).replace(/^Game over: /, '')}): New game to play again`);
    return;
  }
  // A player who left stays out: the moves up to the last leave are kept.
  const shown = Math.min(state.view, state.moves.length);
  const leave = gameInfo().leave;
  const keep = leave
    ? state.moves.slice(0, shown).findLastIndex((m) => m === leave.resign || m === leave.time) + 1
    : 0;
  if (keep > 0 && keep === shown) {
    const seat = state.turns.find((t) => t.ply === keep)?.seat ?? 0;
    say(`${gameInfo().players[seat]} left the game with the last move: a player who leaves is not brought back`);
    return;
  }
  await stopThinking();
  // Back to the last position where a person was to move (at least one move).
  let view = shown - 1;
  if (view < 0) {
    await refresh();
    return;
  }
  const before = state.moves.length;
  while (view > keep) {
    const set = await engine.request(positionCommand(view));
    const mover = await engine.request('to_move');
    const index = gameInfo().players.indexOf(mover.text);
    if (set.ok && state.seats[index] === 'person') break;
    view--;
  }
  const taken = before - view;
  const moves = `${taken} move${taken === 1 ? '' : 's'}`;
  // The player who gets a move back asks; the other persons at the board answer (as
  // on lichess, where a take-back is a request). ludus's seats always agree.
  await engine.request(positionCommand(view));
  const players = gameInfo().players;
  const requester = players.indexOf((await engine.request('to_move')).text);
  const gone = leftSeats();
  const others = players.filter((_, i) => i !== requester && state.seats[i] === 'person' && !gone.has(i));
  if (requester >= 0 && others.length > 0) {
    const accepted = await ask(`${players[requester]} asks to take back ${moves}. ${others.join(' and ')}: accept?`, 'Accept the take-back', 'Decline');
    if (!accepted) {
      say(`${others.join(' and ')} ${others.length === 1 ? 'declines' : 'decline'} the take-back`);
      await refresh();
      return;
    }
  }
  state.moves = state.moves.slice(0, view);
  state.view = view;
  clearTransient();
  say(`took back ${moves}`);
  await refresh();
}

export async function newGame(game) {
  await stopThinking();
  state.game = game;
  const selected = await engine.request(`game ${game}`);
  if (!selected.ok) {
    say(selected.text, 'error');
    return;
  }
  state.start = null;
  state.moves = [];
  state.view = 0;
  state.ended = null;
  state.seats = [...gameInfo().seats];
  state.flipped = false;
  turnForThePerson();
  orient();
  // The boxes held the last game's texts.
  $('position-text').value = '';
  $('record-text').value = '';
  resetClocks();
  const notation = $('notation');
  notation.innerHTML = '';
  for (const [value, text] of gameInfo().notations) notation.add(new Option(text, value));
  notation.value = gameInfo().reading || gameInfo().notations[0][0];
  drawLayerChoices();
  drawHowToPlay();
  $('result').hidden = true;
  clearTransient();
  await refresh();
}

export async function setPosition() {
  const text = $('position-text').value.trim();
  await stopThinking();
  const set = await engine.request(`position fen ${text}`);
  if (!set.ok) {
    say(set.text, 'error');
    await refresh();
    return;
  }
  state.start = text;
  state.moves = [];
  state.view = 0;
  state.ended = null;
  resetClocks();
  clearTransient();
  say('position set');
  await refresh();
}

export async function loadRecord() {
  // A record starts at its position tag's position, or else at the game's start
  // position (records.md).
  const text = $('record-text').value.replace(/\s+/g, ' ').trim();
  await stopThinking();
  const loaded = await engine.request(`load_record ${text}`);
  if (!loaded.ok) {
    say(loaded.text, 'error');
    await refresh();
    return;
  }
  const record = await engine.request('record');
  const tag = /^\s*\[Position "([^"]*)"\]/.exec(record.text);
  const start = tag ? tag[1] : null;
  const setup = start === null ? 'startpos' : `fen ${start}`;
  const first = await engine.request(`position ${setup}`);
  const mover = await engine.request('to_move');
  const players = gameInfo().players;
  const moves = recordMoves(record.text, players.length, Math.max(0, players.indexOf(mover.text)));
  const check = await engine.request(
    moves.length ? `position ${setup} moves ${moves.join(' ')}` : `position ${setup}`);
  if (!first.ok || !check.ok) {
    say(`the record's moves could not be read back: ${check.text}`, 'error');
    return;
  }
  state.start = start;
  state.moves = moves;
  state.view = 0;
  state.ended = null;
  resetClocks();
  clearTransient();
  say(`record loaded: ${moves.length} moves; step through with → or the buttons`);
  await refresh();
}

export async function copyRecord() {
  await engine.request(positionCommand(state.moves.length));
  const record = await engine.request(`record ${$('notation').value}`);
  await engine.request(positionCommand(state.view));
  $('record-text').value = record.text;
  $('record-panel').open = true;
  try {
    await navigator.clipboard.writeText(record.text);
    say('the record is copied');
  } catch {
    say('the record is in the box below; copy it from there');
  }
}
