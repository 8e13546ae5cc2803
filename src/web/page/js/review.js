// Review.

import { $, svgElement } from './games.js';
import { stepTo } from './history.js';
import { paint } from './panels.js';
import { drawMoves } from './record.js';
import { gameInfo, state } from './state.js';

// The marks of a review (protocol-spec/analysis.md, "Review"): as lichess writes and
// colours them.
export const MARKS = {
  inaccuracy: { symbol: '?!', colour: '#56b4e9' },
  mistake: { symbol: '?', colour: '#e69f00' },
  blunder: { symbol: '??', colour: '#db3031' },
};

// The review of the game shown, if one was made: of this game and start, and of the
// moves played so far or of the first of them (a review stays when the game goes on).
export function currentReview() {
  const review = state.review;
  if (!review?.data || review.game !== state.game || review.start !== state.start) return null;
  if (review.moves.length > state.moves.length) return null;
  if (review.moves.some((m, i) => m !== state.moves[i])) return null;
  return review.data;
}

export function reviewNote(judged) {
  const best = judged.bestLine.slice(0, 4).join(' ');
  return `${judged.mark}: ${judged.player} lost ${judged.loss} points of chance ` +
    `(${judged.chanceBefore} → ${judged.chanceAfter} %); best ${best}`;
}

export async function reviewGame() {
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

// The evaluation graph: each position's chance (two players: the first player's
// expected score, the area in its colour; more: a line a player), the marks as dots
// in their colours, the position shown as a line; a click goes to that move.
export function drawReview() {
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
