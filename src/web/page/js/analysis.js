// Analysis: lines, an evaluation bar, arrows.

import { orient } from './board.js';
import { stopClock } from './clocks.js';
import { engine } from './engine.js';
import { $, PROVEN, svgElement } from './games.js';
import { places } from './keyboard.js';
import { paint } from './panels.js';
import { gameInfo, refresh, say, state, stopThinking } from './state.js';

// How many lines the analysis shows.
const ANALYSIS_LINES = 3;

export async function toggleAnalysis() {
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
export function startAnalysis() {
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
export function analysisInfo(line) {
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

export function drawAnalysis() {
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
export function placeAt(x, y) {
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

export function toggleDrawn(from, to) {
  const i = state.drawn.findIndex(([a, b]) => a === from && b === to);
  if (i >= 0) state.drawn.splice(i, 1);
  else state.drawn.push([from, to]);
  drawArrows();
}

// The arrows on the board: the analysis's best move (its places, from `legal_places`),
// and what the person drew (an arrow, or a ring where it started and ended on one
// place), in the board's own coordinates so that a flip turns them with it.
export function drawArrows() {
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
