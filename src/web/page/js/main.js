// The board of `ludus serve`: one more client of ludus's native protocol
// (protocol-spec/protocol.md), over the WebSocket at /ws. The engine keeps the rules;
// this page only draws what the engine says (`diagram svg`, `legal_moves`, `status`)
// and keeps the list of moves played.
//
// One module a concern: games.js (what the server says of its games), engine.js (the
// session), state.js (the game on the page and its redraw), board.js, record.js,
// panels.js, sound.js, clocks.js, thinking.js (ludus's moves), clicking.js,
// premoves.js, dragging.js, keyboard.js, history.js (stepping, undo, positions and
// records), review.js, analysis.js, ending.js (resign, draw, abort), persistence.js,
// and this one, which wires the page and starts it.

import { drawAnalysis, toggleAnalysis } from './analysis.js';
import { orient } from './board.js';
import { onBoardClick } from './clicking.js';
import { runClock, setClock, tick } from './clocks.js';
import { onPointerDown, onPointerMove, onPointerUp } from './dragging.js';
import { abort, offerDraw, resign } from './ending.js';
import { Engine, engine, useEngine } from './engine.js';
import { $, GAMES, loadGames } from './games.js';
import { copyRecord, loadRecord, newGame, setPosition, stepTo, undo } from './history.js';
import { drawCursor, onBoardKey, onMoveTyped, places } from './keyboard.js';
import { drawHowToPlay } from './panels.js';
import { loadSaved, restore, save } from './persistence.js';
import { reviewGame } from './review.js';
import { toggleSound, wakeSound } from './sound.js';
import { refresh, say, setState, state, stopThinking } from './state.js';
import { maybeEngineMove, showInfo } from './thinking.js';

// Start.

function wire() {
  $('board').addEventListener('click', onBoardClick);
  $('board').addEventListener('keydown', onBoardKey);
  $('board').addEventListener('pointerdown', onPointerDown);
  $('board').addEventListener('pointerup', onPointerUp);
  $('board').addEventListener('pointermove', onPointerMove);
  $('board').addEventListener('focus', () => {
    if (!document.getElementById(state.cursor)) state.cursor = places()[0]?.id ?? null;
    drawCursor();
  });
  $('move-form').addEventListener('submit', onMoveTyped);
  $('clock').addEventListener('change', setClock);
  setInterval(tick, 100);
  $('game').addEventListener('change', () => newGame($('game').value));
  $('new-game').addEventListener('click', () => newGame(state.game));
  $('undo').addEventListener('click', undo);
  $('flip').addEventListener('click', () => {
    state.flipped = !state.flipped;
    orient();
    if (state.analysis) drawAnalysis();
  });
  $('pause').addEventListener('click', async () => {
    state.paused = !state.paused;
    $('pause').setAttribute('aria-pressed', String(state.paused));
    $('pause').textContent = state.paused ? 'Resume' : 'Pause';
    if (state.paused) {
      await stopThinking();
      await refresh();
    } else {
      runClock();
      maybeEngineMove();
    }
  });
  $('notation').addEventListener('change', () => {
    drawHowToPlay();
    refresh();
  });
  $('to-start').addEventListener('click', () => stepTo(0));
  $('back').addEventListener('click', () => stepTo(state.view - 1));
  $('forward').addEventListener('click', () => stepTo(state.view + 1));
  $('to-end').addEventListener('click', () => stepTo(state.moves.length));
  $('set-position').addEventListener('click', setPosition);
  $('show-position').addEventListener('click', async () => {
    const fen = await engine.request('fen');
    $('position-text').value = fen.text;
  });
  $('load-record').addEventListener('click', loadRecord);
  $('copy-record').addEventListener('click', copyRecord);
  $('review-game').addEventListener('click', reviewGame);
  $('resign').addEventListener('click', resign);
  $('analysis').addEventListener('click', toggleAnalysis);
  $('sound').addEventListener('click', toggleSound);
  // The right button draws arrows on the board, as on lichess: no menu there.
  $('board').addEventListener('contextmenu', (event) => event.preventDefault());
  $('offer-draw').addEventListener('click', offerDraw);
  $('abort').addEventListener('click', abort);
  document.addEventListener('keydown', (event) => {
    if (event.target.closest('textarea, input, select')) return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (step) stepTo(state.view + step);
    else if (event.key === 'Home') stepTo(0);
    else if (event.key === 'End') stepTo(state.moves.length);
    else return;
    event.preventDefault();
  });
}

// A browser does not tell the page why its WebSocket failed: the server says whether
// every session is taken.
async function whyRefused(otherwise) {
  try {
    const reply = await fetch('/sessions', { cache: 'no-store' });
    const { open, limit, peer_open, peer_limit } = await reply.json();
    if (open >= limit) return `all ${limit} engine sessions are in use; close a tab and reload`;
    if (peer_open >= peer_limit) {
      return `all ${peer_limit} engine sessions one address may have are in use; close a tab and reload`;
    }
  } catch {
    // The server itself is gone.
  }
  return otherwise;
}

async function main() {
  wire();
  useEngine(new Engine(showInfo, (reason) => {
    setState('closed');
    const why = reason ? ` (${reason})` : '';
    say(`the engine session has ended${why}; reload the page for a new one`, 'error');
  }));
  try {
    await engine.connect();
  } catch (e) {
    setState('closed');
    say(await whyRefused(e.message), 'error');
    return;
  }
  await loadGames();
  // ludus's chances beside its scores, for the line it shows (wdl.md).
  await engine.request('setoption name UCI_ShowWDL value true');
  const params = new URLSearchParams(location.search);
  const saved = loadSaved();
  const wanted = params.get('game') ?? saved?.game;
  const game = GAMES[wanted] ? wanted : Object.keys(GAMES)[0];
  $('game').value = game;
  await newGame(game);
  if (params.get('game') === game || (!params.has('game') && saved?.game === game)) {
    await restore(params, saved?.game === game ? saved : null);
  }
  // The clocks as they stand when the page goes away.
  window.addEventListener('pagehide', save);
  // Sound as the person left it; a browser lets it play from their first touch on.
  try {
    if (localStorage.getItem('ludus-sound') === 'on') {
      state.soundOn = true;
      $('sound').setAttribute('aria-pressed', 'true');
    }
  } catch {
    // No storage: sound starts off.
  }
  document.addEventListener('pointerdown', wakeSound);
}

// The page's state, for its browser tests and for the console.
globalThis.state = state;

main();
