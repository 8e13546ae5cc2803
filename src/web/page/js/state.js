// The game on the page.

import { drawArrows, startAnalysis } from './analysis.js';
import { drawBoard, slide } from './board.js';
import { personToMove } from './clicking.js';
import { drawClocks, runClock } from './clocks.js';
import { engine } from './engine.js';
import { $, GAMES } from './games.js';
import { places } from './keyboard.js';
import { drawResult, drawSeats, drawTurn } from './panels.js';
import { save } from './persistence.js';
import { playPremove } from './premoves.js';
import { drawMoves, readRecord } from './record.js';
import { drawReview } from './review.js';
import { play } from './sound.js';
import { maybeEngineMove } from './thinking.js';

export const state = {
  game: null,
  start: null, // null: the start position; else a position text
  moves: [], // canonical moves from the start
  view: 0, // how many of them the board shows
  seats: [],
  legal: [],
  mover: null, // index in the game's players; null when over
  over: false,
  selected: null,
  flipped: false,
  paused: false,
  soundOn: false, // the sounds of moves (toggleSound)
  premove: null, // a person's move chosen while ludus thinks: { from, to } (choosePremove)
  premoveFrom: null,
  sound: null, // the sound of the move just played, made once the board shows it
  analysis: false, // analysis mode: ludus analyses the position shown, nobody moves for it
  analysing: null, // the analysis's search under way: { lines } (best first)
  drawn: [], // the arrows and rings a person drew on the position shown: [from, to]
  epoch: 0, // grows with every change; an engine's move for an older one is gesture.dropped
  thinking: false,
  turns: [], // the game's turns as its record numbers them (recordTurns)
  recordKey: null, // what `turns` was read for
  played: null, // the move just played, to be named once the list is read
  cursor: null, // the id of the place the keyboard's cursor is on
  places: new Map(), // each legal move's places (legal_places)
  named: new Map(), // each legal move in the notation chosen
  // A game ended by the players rather than the rules (a resignation, a draw agreed,
  // an abort): { text } as the result shows it; null while the game goes on.
  ended: null,
  endedByRules: false, // the game's last position is an end by the rules
  // The last review asked for: the game, start and moves it is of, and the server's
  // answer (null while it runs); see currentReview.
  review: null,
  // The time control, if any, and each seat's time left (clocks below).
  clock: { base: null, inc: 0, perMove: false, left: [], running: null, since: null, flag: null, started: false },
};

export function gameInfo() {
  return GAMES[state.game];
}

export function say(text, kind = 'info') {
  const message = $('message');
  message.textContent = text;
  message.dataset.kind = kind;
}

export function setState(name) {
  document.body.dataset.state = name;
}

export function positionCommand(upTo) {
  const setup = state.start === null ? 'startpos' : `fen ${state.start}`;
  const moves = state.moves.slice(0, upTo);
  return moves.length ? `position ${setup} moves ${moves.join(' ')}` : `position ${setup}`;
}

// What belongs to one position only: the engine's line, a choice between moves, the
// message. Cleared when the game, the position or the moves shown change.
export function clearTransient() {
  $('thinking').textContent = '';
  state.drawn = [];
  state.premove = null;
  state.premoveFrom = null;
  state.line = null;
  $('choice').hidden = true;
  $('choice').innerHTML = '';
  state.selected = null;
  say('');
}

// Every action of a person starts here and ends in a redraw; the page reads as busy
// from this moment, so nobody (a test neither) takes the old board for the answer.
export async function stopThinking() {
  setState('loading');
  state.epoch++;
  if (state.thinking) {
    state.thinking = false;
    await engine.stop();
  }
  if (state.analysing) {
    const search = state.analysing;
    state.analysing = null;
    await engine.stop();
    await search.done;
  }
}

// Sets the engine to the position shown and redraws everything from its answers.
export async function refresh() {
  if (state.analysing) await stopThinking();
  const epoch = ++state.epoch;
  state.selected = null;
  setState('loading');
  const set = await engine.request(positionCommand(state.view));
  if (!set.ok) {
    say(set.text, 'error');
    setState('idle');
    return;
  }
  const layers = gameInfo().layers
    .filter(([name]) => $(`layer-${name}`)?.checked)
    .map(([name]) => ` ${name}`)
    .join('');
  const [diagram, places, named, status, mover] = await Promise.all([
    engine.request(`diagram svg${layers}`),
    engine.request('legal_places'),
    engine.request(`legal_moves ${$('notation').value}`),
    engine.request('status'),
    engine.request('to_move'),
  ]);
  await readRecord();
  if (epoch !== state.epoch) return;
  drawBoard(diagram.text);
  slide();
  const wasOver = state.view === state.moves.length && state.endedByRules;
  readLegal(places.ok ? places.text : '', named.ok ? named.text : '');
  if (state.view === state.moves.length) state.endedByRules = mover.text === 'none';
  if (state.sound) {
    const ended = state.endedByRules && !wasOver;
    const check = $('board').querySelector('.mark.check');
    play(ended ? 'end' : check ? 'check' : state.sound);
    state.sound = null;
  }
  state.over = mover.text === 'none' || state.clock.flag !== null || state.ended !== null;
  state.mover = state.over ? null : gameInfo().players.indexOf(mover.text);
  drawMoves();
  drawReview();
  if (state.played) {
    // The move just played, named as the list names it (the notation, its marks).
    const { ply, by, text } = state.played;
    state.played = null;
    const turn = state.turns.find((t) => t.ply === ply);
    const named = turn ? turn.text : text;
    const leaver = gameInfo().players[turn ? turn.seat : 0];
    let said = by === 'ludus' ? `ludus played ${named}` : `played ${named}`;
    if (by === 'clock') said = `${leaver} ran out of time and leaves the game, its men taken off; the others play on`;
    if (by === 'resign') said = `${leaver} resigned and leaves the game, its men taken off; the others play on`;
    // A player who cannot move passes, said as it happens.
    const passed = state.turns.filter((t) => t.pending).map((t) => gameInfo().players[t.seat]);
    if (passed.length && !state.over) {
      said += `; ${passed.join(' and ')} cannot move and ${passed.length === 1 ? 'passes' : 'pass'}`;
    }
    if (ply === state.view) say(said);
  }
  drawResult(status.text);
  drawSeats();
  drawTurn();
  runClock();
  drawClocks();
  save();
  drawArrows();
  setState('idle');
  if (state.analysis) startAnalysis();
  else if (state.premove && personToMove()) playPremove();
  else maybeEngineMove();
}

// The legal moves (canonical), the places a person points at for each (`legal_places`),
// and each move's name in the notation chosen (`legal_moves <notation>`, same order).
function readLegal(places, named) {
  const names = named ? named.split(' ') : [];
  state.legal = [];
  state.places = new Map();
  state.named = new Map();
  places.split('\n').filter((line) => line).forEach((line, i) => {
    const [move, ...at] = line.split(' ');
    state.legal.push(move);
    state.places.set(move, at);
    state.named.set(move, names[i] || move);
  });
}

// Where a move starts (null for a move of one place, a pit) and where it ends.
export function fromOf(move) {
  const at = state.places.get(move) || [];
  return at.length > 1 ? at[0] : null;
}

export function toOf(move) {
  const at = state.places.get(move) || [];
  return at[at.length - 1];
}
