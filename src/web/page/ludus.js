// The board of `ludus serve`: one more client of ludus's native protocol
// (protocol-spec/protocol.md), over the WebSocket at /ws. The engine keeps the rules;
// this page only draws what the engine says (`diagram svg`, `legal_moves`, `status`)
// and keeps the list of moves played.
'use strict';

// What the page must know of each game to offer it: its players in turn order, the
// notations its records are written in, and how to read a move's squares from the
// canonical notation (for clicking).
const GAMES = {
  senamukha: {
    players: ['white', 'black'],
    notations: [['long', 'long form (seed)'], ['san', 'SAN'], ['coordinate', 'coordinates']],
    seats: ['person', 'movetime 1000'],
    // i3h5, a10a11e (a promotion names its piece)
    squares: (move) => {
      const m = /^([a-k]\d{1,2})([a-k]\d{1,2})([a-z]?)$/.exec(move);
      return m && { from: m[1], to: m[2], extra: m[3] };
    },
  },
  mentula: {
    players: ['white', 'yellow', 'red', 'magenta'],
    notations: [['full', 'full'], ['short', 'short'], ['compact', 'compact']],
    seats: ['person', 'movetime 500', 'movetime 500', 'movetime 500'],
    // a2-c3-e4, g8-f6xe4: start, pivot, target
    squares: (move) => {
      const parts = move.split(/[-x:]/);
      return parts.length === 3 && { from: parts[0], pivot: parts[1], to: parts[2], extra: '' };
    },
  },
  mangala: {
    players: ['south', 'north'],
    notations: [['letter', 'pit letters'], ['number', 'pit numbers']],
    seats: ['person', 'movetime 1000'],
    squares: () => null,
  },
};

// What a seat can be: a person, or ludus with a limit per move.
const SEAT_KINDS = [
  ['person', 'a person'],
  ['depth 1', 'ludus, depth 1 (weakest)'],
  ['depth 3', 'ludus, depth 3'],
  ['movetime 200', 'ludus, 0.2 s a move'],
  ['movetime 500', 'ludus, 0.5 s a move'],
  ['movetime 1000', 'ludus, 1 s a move'],
  ['movetime 3000', 'ludus, 3 s a move'],
  ['movetime 10000', 'ludus, 10 s a move'],
];

const $ = (id) => document.getElementById(id);

// --- The engine session -------------------------------------------------------------

class Engine {
  constructor(onInfo, onClose) {
    this.nextId = 1;
    this.pending = new Map();
    this.onInfo = onInfo;
    this.onClose = onClose;
    this.bestmove = null;
  }

  connect() {
    return new Promise((resolve, reject) => {
      const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
      this.socket = new WebSocket(`${scheme}://${location.host}/ws`);
      this.socket.onopen = () => {
        this.opened = true;
        resolve();
      };
      this.socket.onerror = () => reject(new Error('cannot reach the engine'));
      // A socket refused before it opened is told by connect's error instead.
      this.socket.onclose = () => this.opened && this.onClose();
      this.socket.onmessage = (event) => this.receive(event.data);
    });
  }

  // One message is one protocol message: a reply (`=`/`?`, the id, the text, an empty
  // line) or an unsolicited line (`info`, `bestmove`, `readyok`).
  receive(text) {
    if (text[0] === '=' || text[0] === '?') {
      const ok = text[0] === '=';
      const id = /^\d*/.exec(text.slice(1))[0];
      let body = text.slice(1 + id.length);
      body = body.startsWith(' ') ? body.slice(1) : body.replace(/^\n/, '');
      body = body.replace(/\n+$/, '');
      const waiting = this.pending.get(id);
      if (waiting) {
        this.pending.delete(id);
        waiting({ ok, text: body });
      }
      return;
    }
    for (const line of text.split('\n')) {
      if (line.startsWith('info ')) {
        this.onInfo(line);
      } else if (line.startsWith('bestmove ')) {
        const waiting = this.bestmove;
        this.bestmove = null;
        // The move is the first word (a `ponder` move may follow).
        if (waiting) waiting(line.slice('bestmove '.length).trim().split(/\s+/)[0]);
      }
    }
  }

  // Sends one request; resolves with its reply, { ok, text }.
  request(command) {
    const id = String(this.nextId++);
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.send(`${id} ${command}`);
    });
  }

  // `go` with the limits; resolves with the best move.
  async think(limits) {
    const best = new Promise((resolve) => { this.bestmove = resolve; });
    const started = await this.request(`go ${limits}`);
    if (!started.ok) {
      this.bestmove = null;
      throw new Error(started.text);
    }
    return best;
  }

  stop() {
    return this.request('stop');
  }
}

// --- The game on the page -----------------------------------------------------------

const state = {
  game: 'senamukha',
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
  epoch: 0, // grows with every change; an engine's move for an older one is dropped
  thinking: false,
  turns: [], // the game's turns as its record numbers them (recordTurns)
  recordKey: null, // what `turns` was read for
  played: null, // the move just played, to be named once the list is read
  cursor: null, // the id of the place the keyboard's cursor is on
};

let engine;

function gameInfo() {
  return GAMES[state.game];
}

function say(text, kind = 'info') {
  const message = $('message');
  message.textContent = text;
  message.dataset.kind = kind;
}

function setState(name) {
  document.body.dataset.state = name;
}

function positionCommand(upTo) {
  const setup = state.start === null ? 'startpos' : `fen ${state.start}`;
  const moves = state.moves.slice(0, upTo);
  return moves.length ? `position ${setup} moves ${moves.join(' ')}` : `position ${setup}`;
}

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
function recordMoves(text, players, first) {
  return recordTurns(text, players, first)
    .filter((t) => !t.skip)
    .map((t) => t.text.replace(/[×#=+]+$/, ''));
}

// What belongs to one position only: the engine's line, a choice between moves, the
// message. Cleared when the game, the position or the moves shown change.
function clearTransient() {
  $('thinking').textContent = '';
  $('choice').hidden = true;
  $('choice').innerHTML = '';
  state.selected = null;
  say('');
}

// Every action of a person starts here and ends in a redraw; the page reads as busy
// from this moment, so nobody (a test neither) takes the old board for the answer.
async function stopThinking() {
  setState('loading');
  state.epoch++;
  if (state.thinking) {
    state.thinking = false;
    await engine.stop();
  }
}

// Sets the engine to the position shown and redraws everything from its answers.
async function refresh() {
  const epoch = ++state.epoch;
  state.selected = null;
  setState('loading');
  const set = await engine.request(positionCommand(state.view));
  if (!set.ok) {
    say(set.text, 'error');
    setState('idle');
    return;
  }
  const reach = state.game === 'mentula' && $('reach').checked ? ' reach' : '';
  const [diagram, legal, status, mover] = await Promise.all([
    engine.request(`diagram svg${reach}`),
    engine.request('legal_moves'),
    engine.request('status'),
    engine.request('to_move'),
  ]);
  await readRecord();
  if (epoch !== state.epoch) return;
  drawBoard(diagram.text);
  state.legal = legal.ok && legal.text ? legal.text.split(' ') : [];
  state.over = mover.text === 'none';
  state.mover = state.over ? null : gameInfo().players.indexOf(mover.text);
  drawMoves();
  if (state.played) {
    // The move just played, named as the list names it (the notation, its marks).
    const { ply, by, text } = state.played;
    state.played = null;
    const turn = state.turns.find((t) => t.ply === ply);
    const named = turn ? turn.text : text;
    if (ply === state.view) say(by === 'ludus' ? `ludus played ${named}` : `played ${named}`);
  }
  drawResult(status.text);
  drawSeats();
  drawTurn();
  setState('idle');
  maybeEngineMove();
}

function drawBoard(svg) {
  const board = $('board');
  board.innerHTML = svg;
  board.dataset.game = state.game;
  orient();
  labelPlaces();
  drawCursor();
}

// Flipped, the board turns half round (CSS) and each man turns back upright about its
// square's centre. A man's own transform places it on its square, so the turn is
// added to that transform rather than set by CSS, which would replace it.
function orient() {
  const board = $('board');
  board.classList.toggle('flipped', state.flipped);
  const square = board.querySelector('.square');
  const half = square ? Number(square.getAttribute('width')) / 2 : 0;
  for (const man of board.querySelectorAll('.man')) {
    if (man.dataset.at === undefined) man.dataset.at = man.getAttribute('transform') || '';
    const upright = state.flipped ? ` rotate(180 ${half} ${half})` : '';
    man.setAttribute('transform', `${man.dataset.at}${upright}`);
  }
}

// The whole game's record in the chosen notation, read again only when the moves or
// the notation change (so that stepping back keeps the notation of later moves); the
// engine is left on the position shown.
async function readRecord() {
  const key = JSON.stringify([state.start, state.moves, $('notation').value]);
  if (state.recordKey === key) return;
  const [, first, , record] = await Promise.all([
    engine.request(positionCommand(0)),
    engine.request('to_move'),
    engine.request(positionCommand(state.moves.length)),
    engine.request(`record ${$('notation').value}`),
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
  state.recordKey = key;
}

// The moves by rounds: a row a round, its number, then a column a player (in its
// colour), `-` for a skipped turn.
function drawMoves() {
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
    move.setAttribute('aria-label', `${turn.round}. ${players[turn.seat]} ${turn.text}`);
    if (turn.ply === state.view) move.classList.add('current');
    if (turn.ply > state.view) move.classList.add('later');
    move.addEventListener('click', () => stepTo(turn.ply));
    list.append(move);
  }
}

// Whose turn it is, next to the board: the player (in its colour), and whether ludus
// thinks for it.
function drawTurn() {
  const turn = $('turn');
  const players = gameInfo().players;
  const name = (i) => players[i][0].toUpperCase() + players[i].slice(1);
  if (state.over) {
    turn.textContent = 'Game over';
    delete turn.dataset.player;
    return;
  }
  turn.dataset.player = players[state.mover];
  const seat = state.seats[state.mover];
  let text = `${name(state.mover)} to move`;
  if (state.view !== state.moves.length) {
    text += ` (move ${state.view} of ${state.moves.length} shown)`;
  } else if (state.thinking) {
    text = `ludus (${name(state.mover)}) is thinking`;
  } else if (seat !== 'person') {
    text += state.paused ? ' (ludus, paused)' : ' (ludus)';
  }
  turn.textContent = text;
}

function drawResult(status) {
  const result = $('result');
  if (status.startsWith('ongoing')) {
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
function drawSeats() {
  const seats = $('seats');
  if (seats.dataset.game !== state.game) {
    seats.dataset.game = state.game;
    seats.querySelectorAll('.seat').forEach((s) => s.remove());
    gameInfo().players.forEach((player, i) => {
      const label = document.createElement('label');
      label.className = 'seat';
      label.append(`${player} `);
      const select = document.createElement('select');
      select.id = `seat-${i}`;
      select.dataset.player = player;
      for (const [value, text] of SEAT_KINDS) select.add(new Option(text, value));
      select.addEventListener('change', async () => {
        state.seats[i] = select.value;
        // The keys go back to the page (← → step), not to this choice.
        select.blur();
        await stopThinking();
        await refresh();
      });
      label.append(select);
      seats.append(label);
    });
  }
  seats.querySelectorAll('.seat').forEach((label, i) => {
    label.classList.toggle('to-move', i === state.mover);
    label.querySelector('select').value = state.seats[i];
  });
}

// --- Engines' moves -----------------------------------------------------------------

function maybeEngineMove() {
  if (state.over || state.paused || state.thinking || state.view !== state.moves.length) return;
  const seat = state.seats[state.mover];
  if (!seat || seat === 'person') return;
  engineMove(seat);
}

async function engineMove(limits) {
  const epoch = state.epoch;
  state.thinking = true;
  setState('thinking');
  drawTurn();
  $('thinking').textContent = `ludus thinks for ${gameInfo().players[state.mover]}…`;
  let best;
  try {
    best = await engine.think(limits);
  } catch (e) {
    state.thinking = false;
    say(`ludus could not search: ${e.message}`, 'error');
    setState('idle');
    return;
  }
  if (epoch !== state.epoch || !state.thinking) return;
  state.thinking = false;
  if (best === 'none') return;
  await playMove(best, 'ludus');
}

function showInfo(line) {
  const words = line.split(' ');
  const field = (name) => {
    const i = words.indexOf(name);
    return i < 0 ? null : words[i + 1];
  };
  if (field('string') !== null && words[1] === 'string') return;
  const depth = field('depth');
  let score = '';
  const s = words.indexOf('score');
  if (s >= 0) {
    const value = Number(words[s + 2]);
    if (words[s + 1] === 'mate') {
      score = value > 0 ? `mates in ${value} plies` : `is mated in ${-value} plies`;
    } else if (state.game === 'mangala' && Math.abs(value) >= 20000) {
      const margin = value > 0 ? value - 20000 : value + 20000;
      score = value > 0 ? `wins by ${margin}` : `loses by ${-margin}`;
    } else {
      score = `${value >= 0 ? '+' : ''}${(value / 100).toFixed(2)}`;
    }
  }
  const many = words.indexOf('scores');
  if (many >= 0) {
    const players = gameInfo().players;
    score = players.map((p, k) => `${p} ${words[many + 1 + k]}`).join(', ');
  }
  const pv = words.indexOf('pv');
  const line2 = pv >= 0 ? words.slice(pv + 1).join(' ') : '';
  const nodes = field('nodes');
  $('thinking').textContent =
    `ludus (${gameInfo().players[state.mover]}): depth ${depth} · ${score} · ${nodes} nodes · ${line2}`;
}

// --- Moves by clicking --------------------------------------------------------------

// Plays a move (any notation the game reads) at the position shown; false if refused.
async function playMove(text, by) {
  setState('loading');
  // A move played while earlier moves are shown replaces the moves after them.
  const set = await engine.request(positionCommand(state.view));
  if (!set.ok) {
    say(set.text, 'error');
    setState('idle');
    return false;
  }
  const played = await engine.request(`play ${text}`);
  if (!played.ok) {
    say(played.text, 'error');
    setState('idle');
    return false;
  }
  state.moves = state.moves.slice(0, state.view);
  state.moves.push(played.text);
  state.view = state.moves.length;
  state.played = { ply: state.view, by, text: played.text };
  await refresh();
  return true;
}

function personToMove() {
  return !state.over && state.mover !== null && state.seats[state.mover] === 'person';
}

function clickedSquare(target) {
  const pit = target.closest('[id^="pit-"]');
  if (pit) return { pit: pit.id.slice(4) };
  const man = target.closest('[data-square]');
  if (man) return { square: man.dataset.square };
  const square = target.closest('[id^="sq-"]');
  if (square) return { square: square.id.slice(3) };
  return null;
}

function mark(squares, kind) {
  for (const sq of squares) {
    const el = document.getElementById(`sq-${sq}`);
    if (el) el.classList.add(kind);
  }
}

function clearMarks() {
  document.querySelectorAll('#board .selected, #board .target').forEach((el) => {
    el.classList.remove('selected', 'target');
  });
}

function movesFrom(square) {
  const read = gameInfo().squares;
  return state.legal.filter((m) => {
    const s = read(m);
    return s && s.from === square;
  });
}

async function onBoardClick(event) {
  const at = clickedSquare(event.target);
  if (!at) return;
  await choose(at);
}

// A square or pit chosen, by a click or by Enter on the keyboard's cursor.
async function choose(at) {
  if (state.view !== state.moves.length && !personToMove()) {
    say('ludus is to move here; step to the end, or choose a person for this seat');
    return;
  }
  if (!personToMove()) {
    say(state.over ? 'the game is over' : 'it is ludus\'s turn: wait, or choose a person for this seat');
    return;
  }
  if (at.pit !== undefined) {
    if (state.legal.includes(at.pit)) {
      await stopThinking();
      await playMove(at.pit, 'person');
    } else {
      say(`pit ${at.pit} cannot be sown now (legal: ${state.legal.join(' ') || 'none'})`, 'illegal');
    }
    return;
  }
  const square = at.square;
  if (state.selected) {
    const read = gameInfo().squares;
    const choices = movesFrom(state.selected).filter((m) => read(m).to === square);
    if (choices.length === 1) {
      state.selected = null;
      await playMove(choices[0], 'person');
      return;
    }
    if (choices.length > 1) {
      offerChoice(choices);
      return;
    }
    if (square === state.selected) {
      state.selected = null;
      clearMarks();
      return;
    }
  }
  const from = movesFrom(square);
  clearMarks();
  if (from.length === 0) {
    const was = state.selected;
    state.selected = null;
    say(was ? `${was} to ${square} is not a legal move` : `no legal move from ${square}`, 'illegal');
    return;
  }
  state.selected = square;
  mark([square], 'selected');
  mark(from.map((m) => gameInfo().squares(m).to), 'target');
  say(`from ${square} to ${[...new Set(from.map((m) => gameInfo().squares(m).to))].join(', ')}`);
}

// --- Moves by dragging --------------------------------------------------------------

// A man pressed and let go over another square: the two choices of a click-click.
// (A press and a release on different elements give no click on either.)
let dragFrom = null;

function onPointerDown(event) {
  $('board').classList.remove('keyed');
  const at = clickedSquare(event.target);
  dragFrom = event.button === 0 && at && at.square ? { square: at.square, x: event.clientX, y: event.clientY } : null;
}

async function onPointerUp(event) {
  const from = dragFrom;
  dragFrom = null;
  if (!from || Math.hypot(event.clientX - from.x, event.clientY - from.y) < 8) return;
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const to = under && clickedSquare(under);
  if (!to || !to.square || to.square === from.square) return;
  if (state.selected !== from.square) await choose({ square: from.square });
  if (state.selected === from.square) await choose({ square: to.square });
}

// --- Moves by keyboard -------------------------------------------------------------

// The places of the board a person chooses: squares, or pits.
function places() {
  return [...document.querySelectorAll('#board [id^="sq-"], #board [id^="pit-"]')];
}

function placeOf(element) {
  return element.id.startsWith('pit-') ? { pit: element.id.slice(4) } : { square: element.id.slice(3) };
}

// Names for screen readers: each square with what stands on it ("e4, white pawn"),
// each pit with its counters; the drawings of the men themselves are not read.
function labelPlaces() {
  for (const el of places()) {
    el.setAttribute('role', 'button');
    if (el.id.startsWith('pit-')) {
      el.setAttribute('aria-label', `pit ${el.id.slice(4)}, ${el.dataset.count} counters`);
      continue;
    }
    const square = el.id.slice(3);
    const man = document.querySelector(`#board .man[data-square="${square}"]`);
    const what = man ? [...man.classList].filter((c) => c !== 'man').join(' ') : 'empty';
    el.setAttribute('aria-label', `${square}, ${what}`);
  }
  for (const man of document.querySelectorAll('#board .man')) man.setAttribute('aria-hidden', 'true');
}

// The keyboard's cursor: a place of the board, outlined while the board has the focus.
function drawCursor() {
  document.querySelectorAll('#board .cursor').forEach((el) => el.classList.remove('cursor'));
  const board = $('board');
  const at = state.cursor && document.getElementById(state.cursor);
  if (!at) {
    board.removeAttribute('aria-activedescendant');
    return;
  }
  at.classList.add('cursor');
  board.setAttribute('aria-activedescendant', state.cursor);
}

// The arrow keys move the cursor to the nearest place that way on the screen, so that
// they follow the board as drawn, flipped or not, square or pits.
function moveCursor(key) {
  const all = places();
  if (!all.length) return;
  const current = document.getElementById(state.cursor) || all[0];
  const centre = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2, size: Math.max(r.width, r.height) };
  };
  const from = centre(current);
  const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  let best = null;
  let bestDistance = Infinity;
  for (const el of all) {
    const to = centre(el);
    const along = (to.x - from.x) * dx + (to.y - from.y) * dy;
    const across = Math.abs((to.x - from.x) * dy + (to.y - from.y) * dx);
    if (along < from.size / 4 || across > from.size / 2) continue;
    if (along < bestDistance) {
      best = el;
      bestDistance = along;
    }
  }
  if (best) state.cursor = best.id;
  else if (!document.getElementById(state.cursor)) state.cursor = current.id;
  drawCursor();
}

async function onBoardKey(event) {
  // The cursor shows once the keys are used, not for a click that gave the focus.
  $('board').classList.add('keyed');
  if (event.key.startsWith('Arrow')) {
    moveCursor(event.key);
  } else if (event.key === 'Enter' || event.key === ' ') {
    const at = document.getElementById(state.cursor);
    if (at) await choose(placeOf(at));
  } else if (event.key === 'Escape') {
    state.selected = null;
    clearMarks();
  } else {
    return;
  }
  event.preventDefault();
  event.stopPropagation();
}

// A move typed in any notation of the game (`Nab5`, `g8-f6xe4`, `C`).
async function onMoveTyped(event) {
  event.preventDefault();
  const field = $('move-text');
  const text = field.value.trim();
  if (!text) return;
  if (!personToMove()) {
    say(state.over ? 'the game is over' : 'it is ludus\'s turn: wait, or choose a person for this seat');
    return;
  }
  await stopThinking();
  if (await playMove(text, 'person')) field.value = '';
}

// A promotion (or any other choice between moves with the same squares).
function offerChoice(moves) {
  const choice = $('choice');
  choice.innerHTML = '';
  choice.append('Promote to: ');
  for (const m of moves) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.move = m;
    const piece = { e: 'Elephant', n: 'Knight', r: 'Rook', k: 'King' }[gameInfo().squares(m).extra];
    button.textContent = piece ? `${piece} (${m})` : m;
    button.addEventListener('click', async () => {
      choice.hidden = true;
      state.selected = null;
      await playMove(m, 'person');
    });
    choice.append(button);
  }
  choice.hidden = false;
}

// --- Stepping, undo, positions and records ------------------------------------------

async function stepTo(view) {
  const to = Math.max(0, Math.min(state.moves.length, view));
  if (to === state.view) return;
  await stopThinking();
  state.view = to;
  clearTransient();
  await refresh();
}

async function undo() {
  await stopThinking();
  // Back to the last position where a person was to move (at least one move).
  let view = Math.min(state.view, state.moves.length) - 1;
  if (view < 0) {
    await refresh();
    return;
  }
  const before = state.moves.length;
  state.moves = state.moves.slice(0, view + 1);
  while (view > 0) {
    const set = await engine.request(positionCommand(view));
    const mover = await engine.request('to_move');
    const index = gameInfo().players.indexOf(mover.text);
    if (set.ok && state.seats[index] === 'person') break;
    view--;
  }
  state.moves = state.moves.slice(0, view);
  state.view = view;
  clearTransient();
  const taken = before - view;
  say(`took back ${taken} move${taken === 1 ? '' : 's'}`);
  await refresh();
}

async function newGame(game) {
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
  state.seats = [...gameInfo().seats];
  const notation = $('notation');
  notation.innerHTML = '';
  for (const [value, text] of gameInfo().notations) notation.add(new Option(text, value));
  $('reach-toggle').hidden = game !== 'mentula';
  $('reach-legend').hidden = game !== 'mentula' || !$('reach').checked;
  $('result').hidden = true;
  clearTransient();
  await refresh();
}

async function setPosition() {
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
  clearTransient();
  say('position set');
  await refresh();
}

async function loadRecord() {
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
  clearTransient();
  say(`record loaded: ${moves.length} moves; step through with → or the buttons`);
  await refresh();
}

async function copyRecord() {
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

// --- Start ---------------------------------------------------------------------------

function wire() {
  $('board').addEventListener('click', onBoardClick);
  $('board').addEventListener('keydown', onBoardKey);
  $('board').addEventListener('pointerdown', onPointerDown);
  $('board').addEventListener('pointerup', onPointerUp);
  $('board').addEventListener('focus', () => {
    if (!document.getElementById(state.cursor)) state.cursor = places()[0]?.id ?? null;
    drawCursor();
  });
  $('move-form').addEventListener('submit', onMoveTyped);
  $('game').addEventListener('change', () => newGame($('game').value));
  $('new-game').addEventListener('click', () => newGame(state.game));
  $('undo').addEventListener('click', undo);
  $('flip').addEventListener('click', () => {
    state.flipped = !state.flipped;
    orient();
  });
  $('pause').addEventListener('click', async () => {
    state.paused = !state.paused;
    $('pause').setAttribute('aria-pressed', String(state.paused));
    $('pause').textContent = state.paused ? 'Resume engines' : 'Pause engines';
    if (state.paused) {
      await stopThinking();
      await refresh();
    } else {
      maybeEngineMove();
    }
  });
  $('reach').addEventListener('change', () => {
    $('reach-legend').hidden = !$('reach').checked;
    refresh();
  });
  $('notation').addEventListener('change', refresh);
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
    const { open, limit } = await reply.json();
    if (open >= limit) return `all ${limit} engine sessions are in use; close a tab and reload`;
  } catch {
    // The server itself is gone.
  }
  return otherwise;
}

async function main() {
  wire();
  engine = new Engine(showInfo, () => {
    setState('closed');
    say('the engine session has ended; reload the page for a new one', 'error');
  });
  try {
    await engine.connect();
  } catch (e) {
    setState('closed');
    say(await whyRefused(e.message), 'error');
    return;
  }
  const wanted = new URLSearchParams(location.search).get('game');
  const game = GAMES[wanted] ? wanted : 'senamukha';
  $('game').value = game;
  await newGame(game);
}

main();
