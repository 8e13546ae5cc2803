// Engines' moves.

import { analysisInfo } from './analysis.js';
import { playMove } from './clicking.js';
import { limitsFor } from './clocks.js';
import { engine } from './engine.js';
import { $, PROVEN, levelOf } from './games.js';
import { drawTurn } from './panels.js';
import { gameInfo, say, setState, state } from './state.js';

export function maybeEngineMove() {
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
export function showInfo(line) {
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
