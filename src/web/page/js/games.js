// What the server says of its games (`games`, `describe`), the seats' choices, and the
// helpers every module uses (`$`, svgElement).

import { engine } from './engine.js';

// The games as the server describes them (`games`, then `describe` of each: the
// protocol's descriptors), filled before the first game starts: the page itself
// names no game.
export const GAMES = {};

// Reads the games the engine serves, and what each is, into GAMES.
export async function loadGames() {
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
export function seatKinds(game) {
  const levels = game.levels
    .filter(([level]) => level < 20)
    .map(([level, elo]) => [`level ${level}`, `ludus, level ${level} (Elo ${elo})`]);
  return [...SEAT_KINDS, ...levels];
}

// The strength level a seat plays at: its own, or 20 (full strength).
export function levelOf(kind) {
  return kind.startsWith('level ') ? Number(kind.split(' ')[1]) : 20;
}

export const $ = (id) => document.getElementById(id);

// A score of at least this many centi-units is a proven result: a win by the margin
// beyond it (protocol.md, "Info lines").
export const PROVEN = 20000;

const SVG_NS = 'http://www.w3.org/2000/svg';

// An SVG element with its attributes, for what the page draws over the engine's
// drawings (marks, arrows, the sowing's counter, the review's graph).
export function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}
