// The board of `ludus serve`: one more client of ludus's native protocol
// (protocol-spec/protocol.md), over the WebSocket at /ws. The engine keeps the rules;
// this page only draws what the engine says (`diagram svg`, `legal_moves`, `status`)
// and keeps the list of moves played.
'use strict';

// The games as the server describes them (`games`, then `describe` of each: the
// protocol's descriptors), filled before the first game starts: the page itself
// names no game.
const GAMES = {};

// Reads the games the engine serves, and what each is, into GAMES.
async function loadGames() {
  const names = await engine.request('games');
  for (const name of names.text.split(/\s+/).filter((n) => n)) {
    const described = await engine.request(`describe ${name}`);
    if (!described.ok) continue;
    // leave: the moves that leave a game which goes on without the player who resigns
    // or runs out of time ({ resign, time }); null where that ends the game.
    const game = { name, title: name, board: [8, 8], players: [], colours: [], notations: [], layers: [], levels: [], howto: [], leave: null };
    for (const line of described.text.split('\n')) {
      const [key, first, ...rest] = line.split(' ');
      if (key === 'title') game.title = [first, ...rest].join(' ');
      else if (key === 'board') game.board = [Number(first), Number(rest[0])];
      else if (key === 'player') {
        game.players.push(first);
        game.colours.push(rest[0]);
      } else if (key === 'notation') game.notations.push([first, rest.join(' ')]);
      else if (key === 'reading') game.reading = first;
      else if (key === 'layer') game.layers.push([first, rest.join(' ')]);
      else if (key === 'level') game.levels.push([Number(first), Number(rest[0])]);
      else if (key === 'howto') game.howto.push([first, ...rest].join(' '));
      else if (key === 'leave') game.leave = { ...game.leave, [first]: rest[0] };
    }
    // Every seat but the first is ludus's at first, quicker when there are several,
    // so that a round takes about as long in every game.
    const think = game.players.length > 2 ? 'movetime 500' : 'movetime 1000';
    game.seats = game.players.map((_, i) => (i === 0 ? 'person' : think));
    GAMES[name] = game;
  }
  const choice = $('game');
  choice.innerHTML = '';
  for (const game of Object.values(GAMES)) choice.add(new Option(game.title, game.name));
}

// What a seat can be: a person, or ludus with a limit per move.
const SEAT_KINDS = [
  ['person', 'a person'],
  ['clock', 'ludus, on its clock (1 s a move without one)'],
  ['depth 1', 'ludus, depth 1 (weakest)'],
  ['depth 3', 'ludus, depth 3'],
  ['movetime 200', 'ludus, 0.2 s a move'],
  ['movetime 500', 'ludus, 0.5 s a move'],
  ['movetime 1000', 'ludus, 1 s a move'],
  ['movetime 3000', 'ludus, 3 s a move'],
  ['movetime 10000', 'ludus, 10 s a move'],
];

// A game's seat choices: the kinds above, then ludus at each strength level below full
// strength, named with its Elo on ludus's scale for the game (levels.md). A level
// plays within its own budget, on the clock when there is one.
function seatKinds(game) {
  const levels = game.levels
    .filter(([level]) => level < 20)
    .map(([level, elo]) => [`level ${level}`, `ludus, level ${level} (Elo ${elo})`]);
  return [...SEAT_KINDS, ...levels];
}

// The strength level a seat plays at: its own, or 20 (full strength).
function levelOf(kind) {
  return kind.startsWith('level ') ? Number(kind.split(' ')[1]) : 20;
}

const $ = (id) => document.getElementById(id);

// A score of at least this many centi-units is a proven result: a win by the margin
// beyond it (protocol.md, "Info lines").
const PROVEN = 20000;

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
      // A socket refused before it opened is told by connect's error instead; the
      // server says why it closed one (idle, a bound) in the close frame's reason.
      this.socket.onclose = (event) => this.opened && this.onClose(event.reason);
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

  // A short search of the position the session is on, for the page itself (not shown
  // as thinking): its last score, the side to move's, in centi-units (a mate as
  // ±PROVEN·10); 0 when it gave none.
  async evaluate(limits) {
    let last = null;
    const show = this.onInfo;
    this.onInfo = (line) => {
      const words = line.split(' ');
      const s = words.indexOf('score');
      if (s >= 0) last = words[s + 1] === 'mate' ? Math.sign(Number(words[s + 2])) * PROVEN * 10 : Number(words[s + 2]);
    };
    try {
      await this.think(limits);
    } finally {
      this.onInfo = show;
    }
    return last ?? 0;
  }

  stop() {
    return this.request('stop');
  }
}

// --- The game on the page -----------------------------------------------------------

const state = {
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
  epoch: 0, // grows with every change; an engine's move for an older one is dropped
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
async function stopThinking() {
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
async function refresh() {
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
function fromOf(move) {
  const at = state.places.get(move) || [];
  return at.length > 1 ? at[0] : null;
}

function toOf(move) {
  const at = state.places.get(move) || [];
  return at[at.length - 1];
}

function drawBoard(svg) {
  const board = $('board');
  board.innerHTML = svg;
  const [files, ranks] = gameInfo().board;
  board.dataset.shape = files > ranks ? 'wide' : 'square';
  orient();
  labelPlaces();
  drawCursor();
}

// The move just played, animated: the man's drawing slides from its start (a jump:
// over its pivot) to its square, as lichess animates moves; nothing for a pit, or for
// a person who asked for less motion.
const SLIDE_MS = 180;

function slide() {
  const places = state.slide;
  state.slide = null;
  if (!places || matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  if (places.length === 1) {
    sow(places[0]);
    return;
  }
  const to = places[places.length - 1];
  const man = $('board').querySelector(`.man[data-square="${to}"]`);
  const drawing = man?.firstElementChild;
  const corner = (place) => {
    const square = document.getElementById(`sq-${place}`);
    return square ? [Number(square.getAttribute('x')), Number(square.getAttribute('y'))] : null;
  };
  const end = corner(to);
  const steps = places.slice(0, -1).map(corner);
  if (!drawing || !end || steps.some((p) => !p)) return;
  // A man of a flipped board is turned back upright about its centre: its drawing's
  // own axes point the other way.
  const sign = state.flipped ? -1 : 1;
  const offset = ([x, y]) => `translate(${sign * (x - end[0])}px, ${sign * (y - end[1])}px)`;
  const frames = [...steps.map((p) => ({ transform: offset(p) })), { transform: 'translate(0px, 0px)' }];
  drawing.animate(frames, { duration: SLIDE_MS * (frames.length - 1), easing: 'ease-out' });
  man.dataset.slidFrom = places[0];
}

// A sowing just played, counter by counter (the diagram's `.sowing` states it: the pits
// in the order the counters fell, every count before): a counter leaves the pit sown
// from and drops into each pit of the path in turn, the pit's count and its `+n`
// growing as it lands; the captured pits' rings and the stores' counts come at the
// end, as the diagram has them. A new drawing (the next move) ends it.
const SOW_STEP_MS = 110;
const SOW_MOST_MS = 1400;

function sow(origin) {
  const board = $('board');
  const sowing = board.querySelector('.sowing[data-path]');
  const from = document.getElementById(`pit-${origin}`);
  if (!sowing || !from) return;
  const path = sowing.dataset.path.split(' ').map((pit) => document.getElementById(`pit-${pit}`));
  const before = sowing.dataset.before.split(' ').map(Number);
  const storesBefore = sowing.dataset.storesBefore.split(' ').map(Number);
  if (path.some((pit) => !pit)) return;
  const pits = [...board.querySelectorAll('.pit')];
  const count = new Map(pits.map((pit, i) => [pit, before[i]]));
  const text = (element) => element.querySelector('text');
  // What the diagram shows at the end, put back once the counters are down.
  const finals = [...pits, ...board.querySelectorAll('.store')].map((el) => [text(el), text(el).textContent]);
  const badges = new Map([...sowing.querySelectorAll('.sown')].map((b) => [b.dataset.pit, b]));
  const late = [...sowing.querySelectorAll('.captured')];
  pits.forEach((pit) => (text(pit).textContent = String(count.get(pit))));
  ['south', 'north'].forEach((side, i) => {
    const store = document.getElementById(`store-${side}`);
    if (store) text(store).textContent = String(storesBefore[i]);
  });
  for (const mark of [...badges.values(), ...late]) mark.style.visibility = 'hidden';
  const centre = (pit) => {
    const circle = pit.querySelector('circle');
    return [Number(circle.getAttribute('cx')), Number(circle.getAttribute('cy'))];
  };
  const [x0, y0] = centre(from);
  const counter = svgElement('circle', { class: 'counter', cx: x0, cy: y0, r: 7, fill: '#2b1a0a', stroke: '#f4ead8', 'stroke-width': 2, 'pointer-events': 'none' });
  sowing.append(counter);
  const step = Math.min(SOW_STEP_MS, SOW_MOST_MS / path.length);
  const fell = new Map();
  let at = [x0, y0];
  const finish = () => {
    counter.remove();
    for (const [element, shown] of finals) element.textContent = shown;
    for (const mark of [...badges.values(), ...late]) mark.style.visibility = '';
  };
  const hop = (k) => {
    if (!sowing.isConnected) return;
    if (k === path.length) {
      finish();
      return;
    }
    const pit = path[k];
    const [x, y] = centre(pit);
    const offset = ([px, py]) => `translate(${px - x0}px, ${py - y0}px)`;
    const flight = counter.animate([{ transform: offset(at) }, { transform: offset([x, y]) }], { duration: step, easing: 'ease-in-out', fill: 'forwards' });
    at = [x, y];
    flight.finished.then(() => {
      if (!sowing.isConnected) return;
      count.set(pit, count.get(pit) + 1);
      text(pit).textContent = String(count.get(pit));
      const letter = pit.id.slice('pit-'.length);
      fell.set(letter, (fell.get(letter) ?? 0) + 1);
      const badge = badges.get(letter);
      if (badge) {
        badge.style.visibility = '';
        text(badge).textContent = `+${fell.get(letter)}`;
      }
      hop(k + 1);
    });
  };
  hop(0);
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

// Gives an element the colour of the player in seat `seat` (CSS: var(--player)).
function paint(element, seat) {
  element.style.setProperty('--player', gameInfo().colours[seat] || '#888');
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

function drawResult(status) {
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
function drawSeats() {
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
function turnForThePerson() {
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
function drawHowToPlay() {
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

// --- Sound ----------------------------------------------------------------------

// Optional sounds, made by the page itself (no file to load): a short tone for a
// move, a lower and rougher one for a capture, two rising for a check, a chord at
// the end. Off until the person turns them on (browsers allow sound only then).
const SOUNDS = {
  move: [[520, 0, 0.07, 'sine']],
  capture: [[260, 0, 0.12, 'triangle'], [180, 0.03, 0.1, 'square']],
  check: [[660, 0, 0.08, 'sine'], [880, 0.09, 0.1, 'sine']],
  end: [[392, 0, 0.35, 'sine'], [494, 0, 0.35, 'sine'], [587, 0, 0.35, 'sine']],
};
let audio = null;

function play(name) {
  document.body.dataset.sound = name;
  if (!state.soundOn || !audio) return;
  const now = audio.currentTime;
  for (const [frequency, at, length, type] of SOUNDS[name]) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = type;
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, now + at);
    gain.gain.exponentialRampToValueAtTime(0.001, now + at + length);
    tone.connect(gain).connect(audio.destination);
    tone.start(now + at);
    tone.stop(now + at + length);
  }
}

function toggleSound() {
  state.soundOn = !state.soundOn;
  if (state.soundOn && !audio) audio = new AudioContext();
  $('sound').setAttribute('aria-pressed', String(state.soundOn));
  try {
    localStorage.setItem('ludus-sound', state.soundOn ? 'on' : 'off');
  } catch {
    // Kept for this page only.
  }
}

// --- Clocks ---------------------------------------------------------------------

// Clocks are the page's: a time control (minutes + seconds added a move) gives every
// seat the same time; the seat to move at the end of the game spends it, from the first
// move on (the first move is free); a move adds the increment, or with a time per move
// gives the full time back. ludus is told the clocks in its `go` (`time <player> <ms>
// inc <player> <ms>`, and `movestogo 1` for a time per move), and its thinking counts
// as a person's does. A clock that runs out ends the game.

// `5+3` (minutes, then seconds a move; decimals allowed) or `30/move` (seconds for
// every move); null for none (empty or `none`); undefined when unreadable.
function readClock(text) {
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

function resetClocks() {
  const c = state.clock;
  c.left = gameInfo().players.map(() => c.base);
  c.running = null;
  c.since = null;
  c.flag = null;
  c.started = false;
  $('clocks').innerHTML = '';
  drawClocks();
}

function remaining(seat) {
  const c = state.clock;
  const spent = c.running === seat && c.since !== null ? performance.now() - c.since : 0;
  return c.left[seat] - spent;
}

function stopClock() {
  const c = state.clock;
  if (c.running !== null) c.left[c.running] = remaining(c.running);
  c.running = null;
  c.since = null;
}

// A move was played: the seat whose clock ran pays for it and gains the increment.
function chargeMove() {
  const c = state.clock;
  if (c.base === null) return;
  const seat = c.running;
  stopClock();
  if (seat !== null) c.left[seat] = c.perMove ? c.base : c.left[seat] + c.inc;
  c.started = true;
}

// The clock of the seat to move at the end of the game runs (none while paused, over,
// or before the first move); called whenever that may have changed.
function runClock() {
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

function drawClocks() {
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
async function tick() {
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

async function setClock() {
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
function limitsFor(seat) {
  const kind = seat.startsWith('level ') ? 'clock' : seat;
  const c = state.clock;
  if (c.base === null) return kind === 'clock' ? 'movetime 1000' : kind;
  const clocks = gameInfo().players
    .map((p, i) => `time ${p} ${Math.max(1, Math.floor(remaining(i)))} inc ${p} ${c.inc}`)
    .join(' ') + (c.perMove ? ' movestogo 1' : '');
  return kind === 'clock' ? clocks : `${kind} ${clocks}`;
}

// --- Engines' moves -----------------------------------------------------------------

function maybeEngineMove() {
  if (state.over || state.paused || state.analysis || state.thinking || state.view !== state.moves.length) return;
  const seat = state.seats[state.mover];
  if (!seat || seat === 'person') return;
  engineMove(limitsFor(seat), levelOf(seat));
}

async function engineMove(limits, level) {
  const epoch = state.epoch;
  state.thinking = true;
  setState('thinking');
  drawTurn();
  $('thinking').textContent = `ludus thinks for ${gameInfo().players[state.mover]}…`;
  let best;
  try {
    // Every seat has its level; the one session is told the mover's before it thinks.
    if (engine.level !== level) {
      const set = await engine.request(`setoption name Skill Level value ${level}`);
      if (!set.ok) throw new Error(set.text);
      engine.level = level;
    }
    // The live line in the notation chosen (`go ... notation`), as the list shows moves.
    best = await engine.think(`${limits} notation ${$('notation').value}`);
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

// ludus's thinking as a person reads it: the depth, the score for the side that
// thinks (named), its chances (the session shows `wdl`), the nodes and the line in the
// notation chosen. More than two players: each one's chance of first place.
function showInfo(line) {
  if (state.analysing) {
    analysisInfo(line);
    return;
  }
  // The last reports of a search being stopped are nobody's line.
  if (!state.thinking) return;
  const words = line.split(' ');
  const field = (name) => {
    const i = words.indexOf(name);
    return i < 0 ? null : words[i + 1];
  };
  if (field('string') !== null && words[1] === 'string') return;
  const players = gameInfo().players;
  const mover = players[state.mover];
  const depth = field('depth');
  const w = words.indexOf('wdl');
  const wdl = w < 0 ? null : words.slice(w + 1, w + 1 + (players.length === 2 ? 3 : players.length)).map(Number);
  const percent = (permille) => `${Math.round(permille / 10)} %`;
  let score = '';
  const s = words.indexOf('score');
  if (s >= 0) {
    const value = Number(words[s + 2]);
    if (words[s + 1] === 'mate') {
      score = value > 0 ? `${mover} mates in ${value} plies` : `${mover} is mated in ${-value} plies`;
    } else if (Math.abs(value) >= PROVEN) {
      const margin = value > 0 ? value - PROVEN : value + PROVEN;
      score = value > 0 ? `${mover} wins by ${margin}` : `${mover} loses by ${-margin}`;
    } else {
      score = `${value >= 0 ? '+' : ''}${(value / 100).toFixed(2)} for ${mover}`;
    }
    if (wdl) score += ` (wins ${percent(wdl[0])}, draws ${percent(wdl[1])})`;
  }
  if (words.indexOf('scores') >= 0) {
    score = wdl
      ? `first place: ${players.map((p, k) => `${p} ${percent(wdl[k])}`).join(', ')}`
      : `evaluations: ${players.map((p, k) => `${p} ${words[words.indexOf('scores') + 1 + k]}`).join(', ')}`;
  }
  const pv = words.indexOf('pv');
  const moves = pv >= 0 ? words.slice(pv + 1) : [];
  const nodes = field('nodes');
  const head = `ludus (${mover}): depth ${depth} · ${score} · ${nodes} nodes · `;
  state.line = { head, moves };
  $('thinking').textContent = head + moves.join(' ');
}

// --- Moves by clicking --------------------------------------------------------------

// Asks whether a move made at an earlier position may replace the `later` moves
// after it; true when the person says so.
function askReplace(later) {
  const moves = `${later} move${later === 1 ? '' : 's'}`;
  return ask(`This move replaces the ${moves} played after this position.`, 'Replace them', 'Keep the game');
}

// Plays a move (any notation the game reads) at the position shown; false if refused.
async function playMove(text, by) {
  const later = state.moves.length - state.view;
  if (by === 'person' && later > 0 && !(await askReplace(later))) {
    say('the game is kept; → or End goes back to its last move');
    return false;
  }
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
  chargeMove();
  // The man slides from where it stood to where it lands (not after a drag: it is
  // there already).
  state.slide = dropped ? null : state.places.get(played.text) ?? null;
  // A capture, told by a man on the target before the move (the board not redrawn yet).
  const at = state.places.get(played.text) ?? [];
  const target = at[at.length - 1];
  state.sound = target && $('board').querySelector(`.man[data-square="${target}"]`) ? 'capture' : 'move';
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

// Marks places of the board (`selected`, `target`) by class, and draws each mark over
// the men (pointer-free), as lichess does: the chosen square framed, a quiet target a
// dot, a capture (a man stands there) a ring, each dark with a white line so that it
// shows on every square colour; a jump's pivots hollow rings, dashed.
function mark(squares, kind) {
  const svg = $('board').querySelector('svg');
  let overlay = svg?.querySelector('#marks');
  if (svg && !overlay) {
    overlay = svgElement('g', { id: 'marks' });
    svg.append(overlay);
  }
  for (const sq of squares) {
    const el = document.getElementById(`sq-${sq}`);
    if (!el) continue;
    el.classList.add(kind);
    if (!overlay) continue;
    const x = Number(el.getAttribute('x'));
    const y = Number(el.getAttribute('y'));
    const size = Number(el.getAttribute('width'));
    const [cx, cy] = [x + size / 2, y + size / 2];
    const shape = (name, attributes) => overlay.append(svgElement(name, { ...attributes, 'data-square': sq }));
    if (kind === 'selected') {
      shape('rect', { x: x + 2, y: y + 2, width: size - 4, height: size - 4, class: 'chosen outer' });
      shape('rect', { x: x + 5, y: y + 5, width: size - 10, height: size - 10, class: 'chosen inner' });
    } else if (kind === 'target') {
      const man = $('board').querySelector(`.man[data-square="${sq}"]`);
      if (man) {
        shape('circle', { cx, cy, r: size * 0.44, class: 'capture outer' });
        shape('circle', { cx, cy, r: size * 0.44, class: 'capture inner' });
      } else {
        shape('circle', { cx, cy, r: size * 0.16, class: 'quiet' });
      }
    } else if (kind === 'premove') {
      shape('rect', { x: x + 3, y: y + 3, width: size - 6, height: size - 6, class: 'premove' });
    } else if (kind === 'pivot') {
      shape('circle', { cx, cy, r: size * 0.3, class: 'pivot' });
    }
  }
}

function clearMarks() {
  document.querySelectorAll('#board .selected, #board .target, #board .pivot, #board .premove').forEach((el) => {
    el.classList.remove('selected', 'target', 'pivot', 'premove');
  });
  document.querySelector('#board #marks')?.remove();
}

function movesFrom(square) {
  return state.legal.filter((m) => fromOf(m) === square);
}

async function onBoardClick(event) {
  // A press on a man already did what its click would (see onPointerDown).
  if (swallowClick) {
    swallowClick = false;
    return;
  }
  const at = clickedSquare(event.target);
  if (!at) return;
  await choose(at);
}

// A square or pit chosen, by a click or by Enter on the keyboard's cursor.
async function choose(at) {
  // A choice offered for an earlier selection (a promotion) goes with it.
  $('choice').hidden = true;
  if (canPremove() && at.square !== undefined) {
    choosePremove(at.square);
    return;
  }
  if (state.view !== state.moves.length && !personToMove()) {
    say('ludus is to move here; step to the end, or choose a person for this seat');
    return;
  }
  if (!personToMove()) {
    say(state.over ? 'the game is over' : 'it is ludus\'s turn: wait, or choose a person for this seat');
    return;
  }
  if (at.pit !== undefined) {
    const sown = state.legal.filter((m) => fromOf(m) === null && toOf(m) === at.pit);
    if (sown.length) {
      await stopThinking();
      await playMove(sown[0], 'person');
    } else {
      const legal = state.legal.map((m) => state.named.get(m)).join(' ') || 'none';
      say(`pit ${at.pit} cannot be sown now (legal: ${legal})`, 'illegal');
    }
    return;
  }
  const square = at.square;
  if (state.selected) {
    const choices = movesFrom(state.selected).filter((m) => toOf(m) === square);
    if (choices.length === 1) {
      state.selected = null;
      await playMove(choices[0], 'person');
      return;
    }
    if (choices.length > 1) {
      await offerChoice(choices);
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
  mark(from.map(toOf), 'target');
  // A move through a pivot (a jump over a man): each target's pivot too.
  mark([...new Set(from.map((m) => state.places.get(m)).filter((at) => at.length > 2).map((at) => at[1]))], 'pivot');
  say(`from ${square} to ${[...new Set(from.map(toOf))].join(', ')}`);
}

// --- Premoves -------------------------------------------------------------------

// As on lichess, a person facing ludus (two players) may choose their next move while
// ludus thinks: a man of their own, then where it goes. It is played as soon as it is
// their turn if it is legal then (a promotion asks), else dropped with a message. A
// click on the man again, or anywhere else than a square, cancels it.
function canPremove() {
  const players = gameInfo().players;
  return players.length === 2 && state.thinking && !state.over && state.mover !== null &&
    state.view === state.moves.length && state.seats[1 - state.mover] === 'person';
}

function choosePremove(square) {
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

// At the person's turn: the premove waiting, played or dropped.
async function playPremove() {
  const premove = state.premove;
  state.premove = null;
  state.premoveFrom = null;
  if (!premove || !personToMove() || state.view !== state.moves.length) return;
  const choices = state.legal.filter((m) => fromOf(m) === premove.from && toOf(m) === premove.to);
  if (choices.length === 1) await playMove(choices[0], 'person');
  else if (choices.length > 1) await offerChoice(choices);
  else say(`the premove ${premove.from} to ${premove.to} is not legal now: dropped`, 'illegal');
}

// --- Moves by dragging --------------------------------------------------------------

// As on lichess: pressing a man that can move chooses it at once (its targets show),
// the man follows the pointer, and letting go over a target plays there; let go
// elsewhere, it goes back and stays chosen. Pressing the man already chosen and letting
// go without moving lets it go.
let dragFrom = null;
// Where a right-drag (an arrow drawn) started.
let drawFrom = null;
// The click that follows a press handled here is not a second choice.
let swallowClick = false;
// A move being made by a drop: its man is on its square already, nothing slides.
let dropped = false;

// A point of the viewport in the board's own coordinates (flipped or not).
function boardPoint(x, y) {
  const svg = $('board').querySelector('svg');
  const point = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM().inverse());
  return [point.x, point.y];
}

function onPointerDown(event) {
  $('board').classList.remove('keyed');
  swallowClick = false;
  if (event.button === 2) {
    drawFrom = placeAt(event.clientX, event.clientY);
    return;
  }
  dragFrom = null;
  const at = event.button === 0 ? clickedSquare(event.target) : null;
  if (!at || !at.square || !personToMove()) return;
  if (!movesFrom(at.square).length) return;
  const man = $('board').querySelector(`.man[data-square="${at.square}"]`);
  if (!man) return;
  swallowClick = true;
  const wasChosen = state.selected === at.square;
  dragFrom = {
    square: at.square, x: event.clientX, y: event.clientY, man, wasChosen, moved: false,
    origin: man.getAttribute('transform') || '', start: boardPoint(event.clientX, event.clientY),
    pressed: wasChosen ? Promise.resolve() : choose({ square: at.square }),
  };
  $('board').setPointerCapture(event.pointerId);
}

function onPointerMove(event) {
  const drag = dragFrom;
  if (!drag || !(event.buttons & 1)) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 4) return;
  if (!drag.moved) drag.man.parentNode.append(drag.man); // drawn over the other men
  drag.moved = true;
  const [x, y] = boardPoint(event.clientX, event.clientY);
  drag.man.classList.add('dragging');
  drag.man.setAttribute('transform', `translate(${x - drag.start[0]} ${y - drag.start[1]}) ${drag.origin}`);
}

async function onPointerUp(event) {
  if (event.button === 2) {
    const start = drawFrom;
    drawFrom = null;
    const end = placeAt(event.clientX, event.clientY);
    if (start && end) toggleDrawn(start, end);
    return;
  }
  const drag = dragFrom;
  dragFrom = null;
  if (!drag) return;
  await drag.pressed;
  const putBack = () => {
    if (!drag.man.isConnected) return;
    drag.man.classList.remove('dragging');
    drag.man.setAttribute('transform', drag.origin);
  };
  if (!drag.moved) {
    if (drag.wasChosen) await choose({ square: drag.square });
    return;
  }
  const to = placeAt(event.clientX, event.clientY);
  putBack();
  if (!to || to === drag.square || state.selected !== drag.square) return;
  const lands = movesFrom(drag.square).some((m) => toOf(m) === to);
  if (lands) {
    dropped = true;
    try {
      await choose({ square: to });
    } finally {
      dropped = false;
    }
  }
  else say(`${drag.square} to ${to} is not a legal move`, 'illegal');
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

// A choice between moves with the same places (a promotion), each named in the
// notation chosen.
// Several moves between the same two places (a promotion): a button each, with the
// man it leaves there as the engine draws it (the diagram after the move, the man on
// its target) and its name in the notation chosen.
async function offerChoice(moves) {
  const choice = $('choice');
  choice.innerHTML = '';
  choice.append('Which move: ');
  const setup = positionCommand(state.view);
  const join = setup.includes(' moves ') ? ' ' : ' moves ';
  const pictures = [];
  for (const m of moves) {
    await engine.request(setup + join + m);
    pictures.push(await engine.request('diagram svg'));
  }
  await engine.request(setup);
  moves.forEach((m, i) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.move = m;
    const name = state.named.get(m) || m;
    button.setAttribute('aria-label', name);
    const drawn = pictures[i].ok
      ? new DOMParser().parseFromString(pictures[i].text, 'image/svg+xml')
      : null;
    const man = drawn?.querySelector(`.man[data-square="${toOf(m)}"] > g`);
    const square = drawn?.getElementById(`sq-${toOf(m)}`);
    if (man && square) {
      const size = square.getAttribute('width');
      const picture = svgElement('svg', { viewBox: `0 0 ${size} ${size}`, width: 36, height: 36,
        'aria-hidden': 'true', class: 'piece' });
      picture.append(document.importNode(man, true));
      button.append(picture);
    }
    const label = document.createElement('span');
    label.textContent = name;
    button.append(label);
    button.addEventListener('click', async () => {
      choice.hidden = true;
      state.selected = null;
      clearMarks();
      await playMove(m, 'person');
    });
    choice.append(button);
  });
  choice.hidden = false;
}

// What a diagram can draw besides the position (the games' layers): a box each, and
// when it is ticked, what it shows.
function drawLayerChoices() {
  const choices = $('layers');
  const legends = $('layer-legends');
  choices.innerHTML = '';
  legends.innerHTML = '';
  for (const [name, help] of gameInfo().layers) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = `layer-${name}`;
    label.append(box, ` Show ${name}`);
    choices.append(label);
    const legend = document.createElement('p');
    legend.id = `layer-${name}-legend`;
    legend.className = 'help';
    legend.hidden = true;
    legend.textContent = `${name[0].toUpperCase()}${name.slice(1)}: ${help}`;
    legends.append(legend);
    box.addEventListener('change', () => {
      legend.hidden = !box.checked;
      refresh();
    });
  }
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
  state.ended = null;
  resetClocks();
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
  state.ended = null;
  resetClocks();
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

// --- Review ---------------------------------------------------------------------------

// The marks of a review (protocol-spec/analysis.md, "Review"): as lichess writes and
// colours them.
const MARKS = {
  inaccuracy: { symbol: '?!', colour: '#56b4e9' },
  mistake: { symbol: '?', colour: '#e69f00' },
  blunder: { symbol: '??', colour: '#db3031' },
};

// The review of the game shown, if one was made: of this game and start, and of the
// moves played so far or of the first of them (a review stays when the game goes on).
function currentReview() {
  const review = state.review;
  if (!review?.data || review.game !== state.game || review.start !== state.start) return null;
  if (review.moves.length > state.moves.length) return null;
  if (review.moves.some((m, i) => m !== state.moves[i])) return null;
  return review.data;
}

function reviewNote(judged) {
  const best = judged.bestLine.slice(0, 4).join(' ');
  return `${judged.mark}: ${judged.player} lost ${judged.loss} points of chance ` +
    `(${judged.chanceBefore} → ${judged.chanceAfter} %); best ${best}`;
}

async function reviewGame() {
  const asked = { game: state.game, start: state.start, moves: [...state.moves], data: null };
  if (!asked.moves.length) {
    $('review-status').textContent = 'no moves to review yet';
    return;
  }
  state.review = asked;
  $('review-game').disabled = true;
  $('review-status').textContent =
    `reviewing ${asked.moves.length} moves: ludus searches every position…`;
  try {
    const reply = await fetch('/review', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ game: asked.game, start: asked.start, moves: asked.moves }),
    });
    if (!reply.ok) throw new Error((await reply.text()).trim() || `status ${reply.status}`);
    asked.data = await reply.json();
    if (state.review !== asked) return;
    const cut = asked.data.cutShort ? ' (cut short at the server\'s limit on work: the later moves are not judged)' : '';
    $('review-status').textContent = `reviewed ${asked.moves.length} moves${cut}`;
  } catch (e) {
    if (state.review === asked) {
      state.review = null;
      $('review-status').textContent = `the review failed: ${e.message}`;
    }
  } finally {
    $('review-game').disabled = false;
  }
  drawReview();
  drawMoves();
}

const SVG_NS = 'http://www.w3.org/2000/svg';

function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

// The evaluation graph: each position's chance (two players: the first player's
// expected score, the area in its colour; more: a line a player), the marks as dots
// in their colours, the position shown as a line; a click goes to that move.
function drawReview() {
  const graph = $('review-graph');
  const table = $('review-players');
  const list = $('review-marks');
  graph.innerHTML = '';
  list.innerHTML = '';
  const review = currentReview();
  table.hidden = !review;
  if (!review) {
    if (!state.review) $('review-status').textContent = '';
    return;
  }
  const [width, height] = [300, 90];
  const n = review.chances.length - 1;
  const x = (ply) => (n ? (ply / n) * width : 0);
  const y = (chance) => height - (chance / 100) * height;
  const players = gameInfo().players;
  const svg = svgElement('svg', {
    viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: 'none', role: 'img',
    'aria-label': 'evaluation graph: each position\'s chances; click to go to a move',
  });
  const line = (seat) => review.chances
    .map((c, ply) => (c ? `${x(ply).toFixed(1)},${y(c[seat]).toFixed(1)}` : null))
    .filter((p) => p);
  if (players.length === 2) {
    svg.append(svgElement('rect', { width, height, fill: gameInfo().colours[1] }));
    const points = line(0);
    if (points.length) {
      const first = points[0].split(',')[0];
      const last = points[points.length - 1].split(',')[0];
      svg.append(svgElement('polygon', {
        points: `${first},${height} ${points.join(' ')} ${last},${height}`,
        fill: gameInfo().colours[0],
      }));
    }
  } else {
    svg.append(svgElement('rect', { width, height, fill: '#fff', stroke: '#888' }));
    for (let seat = 0; seat < players.length; seat++) {
      const points = line(seat).join(' ');
      svg.append(svgElement('polyline', { points, fill: 'none', stroke: '#222', 'stroke-width': 3,
        'vector-effect': 'non-scaling-stroke' }));
      svg.append(svgElement('polyline', { points, fill: 'none', stroke: gameInfo().colours[seat],
        'stroke-width': 1.5, 'vector-effect': 'non-scaling-stroke', 'data-player': players[seat] }));
    }
  }
  // The even chance: a half for two players, a quarter for four.
  const even = y(100 / players.length);
  svg.append(svgElement('line', { x1: 0, x2: width, y1: even, y2: even,
    stroke: '#888', 'stroke-dasharray': '4 3', 'vector-effect': 'non-scaling-stroke' }));
  svg.append(svgElement('line', { x1: x(state.view), x2: x(state.view), y1: 0, y2: height,
    stroke: '#2a6fdb', 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke', class: 'shown' }));
  for (const judged of review.moves) {
    if (!judged.mark) continue;
    const after = review.chances[judged.ply];
    const seat = players.indexOf(judged.player);
    const chance = after ? after[players.length === 2 ? 0 : seat] : 50;
    svg.append(svgElement('circle', { cx: x(judged.ply), cy: y(chance), r: 3.5,
      fill: MARKS[judged.mark].colour, stroke: '#222', 'data-ply': judged.ply,
      'vector-effect': 'non-scaling-stroke', class: 'mark' }));
    const item = document.createElement('li');
    const go = document.createElement('button');
    go.type = 'button';
    go.dataset.ply = String(judged.ply);
    go.dataset.mark = judged.mark;
    go.textContent = `${judged.player} ${judged.move}${MARKS[judged.mark].symbol} ${judged.mark}, ` +
      `−${judged.loss} points; best ${judged.best}`;
    go.title = reviewNote(judged);
    go.style.setProperty('--mark', MARKS[judged.mark].colour);
    go.addEventListener('click', () => stepTo(judged.ply));
    item.append(go);
    list.append(item);
  }
  svg.addEventListener('click', (event) => {
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((event.clientX - box.left) / box.width) * n);
    stepTo(ply);
  });
  graph.append(svg);
  table.innerHTML = '';
  const head = table.createTHead().insertRow();
  for (const text of ['player', 'accuracy', '?!', '?', '??']) {
    const cell = document.createElement('th');
    cell.textContent = text;
    cell.scope = 'col';
    head.append(cell);
  }
  const titles = ['', 'accuracy, 0 to 100', 'inaccuracies', 'mistakes', 'blunders'];
  head.querySelectorAll('th').forEach((cell, i) => { if (titles[i]) cell.title = titles[i]; });
  const body = table.createTBody();
  for (const player of review.players) {
    const row = body.insertRow();
    row.dataset.player = player.player;
    const values = [player.player, player.accuracy, player.inaccuracies, player.mistakes, player.blunders];
    for (const value of values) row.insertCell().textContent = String(value);
    paint(row.cells[0], players.indexOf(player.player));
  }
}

// --- Analysis: lines, an evaluation bar, arrows --------------------------------------

// How many lines the analysis shows.
const ANALYSIS_LINES = 3;

async function toggleAnalysis() {
  await stopThinking();
  state.analysis = !state.analysis;
  $('analysis').setAttribute('aria-pressed', String(state.analysis));
  $('analysis-panel').hidden = !state.analysis;
  $('eval-bars').hidden = !state.analysis;
  $('board-row').classList.toggle('analysing', state.analysis);
  const lines = state.analysis ? ANALYSIS_LINES : 1;
  await engine.request(`setoption name MultiPV value ${lines}`);
  if (state.analysis) stopClock();
  say(state.analysis ? 'analysis: ludus analyses the position shown; nobody\'s clock runs' : 'analysis off');
  await refresh();
}

// Starts the endless search of the position shown (the engine is on it after a
// refresh); its reports come to analysisInfo until stopThinking.
function startAnalysis() {
  drawAnalysis();
  if (!state.legal.length) {
    $('analysis-head').textContent = 'no move to analyse: the game is over here';
    return;
  }
  const search = { lines: [], mover: state.mover };
  search.done = engine.think(`infinite notation ${$('notation').value}`).catch(() => null);
  state.analysing = search;
  $('analysis-head').textContent = 'ludus analyses…';
}

// One report of the analysis: its line (by `multipv`), score and chances.
function analysisInfo(line) {
  const search = state.analysing;
  const words = line.split(' ');
  if (words[1] === 'string' || words.indexOf('pv') < 0) return;
  const at = (name) => words.indexOf(name);
  const k = at('multipv') >= 0 ? Number(words[at('multipv') + 1]) : 1;
  const players = gameInfo().players;
  const w = at('wdl');
  const found = {
    depth: Number(words[at('depth') + 1]),
    kind: at('score') >= 0 ? words[at('score') + 1] : null,
    value: at('score') >= 0 ? Number(words[at('score') + 2]) : null,
    wdl: w < 0 ? null : words.slice(w + 1, w + 1 + (players.length === 2 ? 3 : players.length)).map(Number),
    moves: words.slice(at('pv') + 1),
  };
  search.lines[k - 1] = found;
  search.lines.length = Math.max(k, Math.min(search.lines.length, ANALYSIS_LINES));
  if (k === 1) search.best = found;
  drawAnalysis();
}

// Each player's expected score (two players: win + half the draw; more: the chance of
// first place), 0 to 1, in turn order, from a line seen by `mover`.
function chancesOf(line, mover) {
  const players = gameInfo().players;
  if (!line?.wdl) return null;
  if (players.length > 2) return line.wdl.map((c) => c / 1000);
  const own = (line.wdl[0] + line.wdl[1] / 2) / 1000;
  return mover === 0 ? [own, 1 - own] : [1 - own, own];
}

// A line's score for the side to move, as people read it.
function scoreText(line, mover) {
  const name = gameInfo().players[mover];
  if (line.kind === 'mate') return line.value > 0 ? `${name} mates in ${line.value}` : `${name} is mated in ${-line.value}`;
  if (line.kind === 'cp') {
    const v = line.value;
    if (Math.abs(v) >= PROVEN) return v > 0 ? `${name} wins by ${v - PROVEN}` : `${name} loses by ${-v - PROVEN}`;
    return `${v >= 0 ? '+' : ''}${(v / 100).toFixed(2)} for ${name}`;
  }
  if (line.wdl) return `${name} ${Math.round(line.wdl[mover] / 10)} %`;
  return '';
}

function drawAnalysis() {
  const list = $('analysis-lines');
  list.innerHTML = '';
  const search = state.analysing;
  const players = gameInfo().players;
  drawEvalBars(search ? chancesOf(search.best, search.mover) : null);
  if (!search) return;
  const best = search.best;
  if (best) $('analysis-head').textContent = `ludus analyses for ${players[search.mover]}: depth ${best.depth}`;
  search.lines.forEach((line, i) => {
    if (!line) return;
    const item = document.createElement('li');
    item.dataset.multipv = String(i + 1);
    const score = document.createElement('span');
    score.className = 'score';
    score.textContent = scoreText(line, search.mover);
    item.append(score, ` ${line.moves.join(' ')}`);
    list.append(item);
  });
  drawArrows();
}

// The evaluation bars: two players, one bar of the side at the bottom's expected
// score (White's unless the board is flipped); more, one bar a player. Each is a
// `meter` to screen readers.
function drawEvalBars(chances) {
  const box = $('eval-bars');
  const players = gameInfo().players;
  const seats = players.length === 2 ? [state.flipped ? 1 : 0] : players.map((_, i) => i);
  if (box.children.length !== seats.length || box.dataset.game !== state.game) {
    box.innerHTML = '';
    box.dataset.game = state.game;
    for (const seat of seats) {
      const bar = document.createElement('div');
      bar.className = 'eval-bar';
      bar.setAttribute('role', 'meter');
      bar.setAttribute('aria-label', players.length === 2 ? 'evaluation' : `evaluation ${players[seat]}`);
      bar.setAttribute('aria-valuemin', '0');
      bar.setAttribute('aria-valuemax', '100');
      const fill = document.createElement('div');
      fill.className = 'fill';
      bar.append(fill);
      box.append(bar);
    }
  }
  [...box.children].forEach((bar, i) => {
    const seat = players.length === 2 ? (state.flipped ? 1 : 0) : i;
    paint(bar, seat);
    bar.dataset.player = players[seat];
    const percent = chances ? Math.round(chances[seat] * 100) : 50;
    bar.setAttribute('aria-valuenow', String(percent));
    bar.setAttribute('aria-valuetext', chances ? `${players[seat]} ${percent} %` : 'not known yet');
    bar.querySelector('.fill').style.height = `${percent}%`;
  });
}

// The place (a square's or a pit's name) under a point of the viewport.
function placeAt(x, y) {
  const under = document.elementFromPoint(x, y);
  const element = under?.closest('#board [id^="sq-"], #board [id^="pit-"]');
  if (element) return element.id.replace(/^(sq|pit)-/, '');
  // A man stands on a square: the square under it.
  const man = under?.closest('#board [data-square]');
  return man ? man.dataset.square : null;
}

function placeElement(place) {
  return document.getElementById(`sq-${place}`) || document.getElementById(`pit-${place}`);
}

function toggleDrawn(from, to) {
  const i = state.drawn.findIndex(([a, b]) => a === from && b === to);
  if (i >= 0) state.drawn.splice(i, 1);
  else state.drawn.push([from, to]);
  drawArrows();
}

// The arrows on the board: the analysis's best move (its places, from `legal_places`),
// and what the person drew (an arrow, or a ring where it started and ended on one
// place), in the board's own coordinates so that a flip turns them with it.
function drawArrows() {
  const svg = $('board').querySelector('svg');
  if (!svg) return;
  svg.querySelector('#arrows')?.remove();
  const group = svgElement('g', { id: 'arrows' });
  const defs = svgElement('defs', {});
  for (const [kind, colour] of [['best', '#1a56db'], ['drawn', '#15781b']]) {
    const head = svgElement('marker', { id: `arrow-head-${kind}`, viewBox: '0 0 10 10', refX: 5,
      refY: 5, markerWidth: 3, markerHeight: 3, orient: 'auto' });
    head.append(svgElement('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: colour }));
    defs.append(head);
  }
  group.append(defs);
  const centre = (place) => {
    const element = placeElement(place);
    if (!element) return null;
    const box = element.getBBox();
    return [box.x + box.width / 2, box.y + box.height / 2, Math.min(box.width, box.height)];
  };
  const draw = (places, kind) => {
    const points = places.map(centre).filter((p) => p);
    if (!points.length) return;
    if (points.length === 1 || places[0] === places[places.length - 1]) {
      const [x, y, size] = points[0];
      group.append(svgElement('circle', { cx: x, cy: y, r: size * 0.45, class: `ring ${kind}`,
        'data-place': places[0] }));
      return;
    }
    group.append(svgElement('polyline', {
      points: points.map(([x, y]) => `${x},${y}`).join(' '),
      class: `arrow ${kind}`, 'marker-end': `url(#arrow-head-${kind})`,
      'data-from': places[0], 'data-to': places[places.length - 1],
    }));
  };
  const best = state.analysing?.best?.moves[0];
  if (best) {
    const canonical = [...state.named].find(([, named]) => named === best)?.[0] ?? best;
    const at = state.places.get(canonical);
    if (at) draw(at, 'best');
  }
  for (const [from, to] of state.drawn) draw([from, to], 'drawn');
  svg.append(group);
}

// --- Ending a game: resign, a draw, abort ---------------------------------------------

// The person who acts for the page: the person to move, else the only person seat;
// null when no seat, or more than one seat not to move, is a person's.
function actingPerson() {
  const at = state.moves.length;
  if (state.view === at && state.mover !== null && state.seats[state.mover] === 'person') return state.mover;
  const persons = state.seats.map((kind, i) => (kind === 'person' ? i : null)).filter((i) => i !== null);
  return persons.length === 1 ? persons[0] : null;
}

// The seats that have left a game that goes on without them, by the move shown.
function leftSeats() {
  const leave = gameInfo().leave;
  if (!leave) return new Set();
  const leaving = new Set([leave.resign, leave.time]);
  return new Set(state.turns.filter((t) => !t.skip && t.ply <= state.view && leaving.has(t.text)).map((t) => t.seat));
}

// Which of resign, draw and abort apply now: a game going on, a person to act; abort
// before every player has moved, resign and draw after. A draw is offered between two
// players only. In a game that goes on without a player who leaves (`describe` names
// its `leave` moves), resigning is leaving, which a player does on its own turn.
function drawControls() {
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

async function resign() {
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

async function abort() {
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

async function offerDraw() {
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
function ask(question, yes, no) {
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

// --- A game that survives a reload --------------------------------------------------

// The game on the page is kept in the browser (local storage) after every change and
// when the page goes away, and the address names the game, its start and its moves:
// a reload, or the address opened again, brings the game back with its seats, clocks
// and board orientation. The time the page was away is not charged to any clock.
const SAVED = 'ludus-game';

function save() {
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

function loadSaved() {
  try {
    const saved = JSON.parse(localStorage.getItem(SAVED));
    return saved && typeof saved === 'object' && Array.isArray(saved.moves) ? saved : null;
  } catch {
    return null;
  }
}

// Brings back the game the address names, or else the one kept in the browser: its
// moves checked by the engine first (a game it refuses is not restored, and says why).
async function restore(params, saved) {
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

// --- Start ---------------------------------------------------------------------------

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
  engine = new Engine(showInfo, (reason) => {
    setState('closed');
    const why = reason ? ` (${reason})` : '';
    say(`the engine session has ended${why}; reload the page for a new one`, 'error');
  });
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
  document.addEventListener('pointerdown', () => {
    if (state.soundOn && !audio) audio = new AudioContext();
  });
}

main();
