//! The network's accumulators along the line the search plays, made only when an
//! evaluation needs them.
//!
//! A move only notes what it changed (one entry a ply). An evaluation then makes each
//! side's accumulator from the last one made on the line, adding and taking away the
//! columns of the men that moved on each ply between: the positions the search leaves
//! without evaluating (table cutoffs, checks) cost nothing. A king move that changes its
//! side's view (its bucket, or the mirror) breaks the chain for that side; the
//! accumulator is then made from the one the side last had in that view, kept in a
//! cache with the men it counted, by adding and taking away only the men that differ
//! (usually a few, where counting every man from nothing would take some sixty
//! columns). The accumulators live in one buffer that only grows, so that a move
//! allocates nothing once the line has been that deep.

use std::sync::Arc;

use super::super::board::{Bitboard, Color, Kind, Piece, Square, Squares};
use super::super::position::Position;
use super::features::{VIEWS, View};
use super::network::Network;

/// What a move changed on the board, as the accumulators count it.
#[derive(Clone, Copy, Debug)]
struct Change {
    moved: Piece,
    from: Square,
    to: Square,
    /// The man on `to` after the move (a promoted pawn arrives as its new kind).
    arrived: Piece,
    captured: Option<Piece>,
}

/// One ply of the line: each side's view, the move that led here, and which sides'
/// accumulators are made.
#[derive(Clone, Copy, Debug)]
struct Ply {
    views: [View; 2],
    change: Option<Change>,
    made: [bool; 2],
}

/// A side's last accumulator in one of its views, and the men it counts (by colour and
/// kind).
#[derive(Clone, Debug)]
struct Cached {
    values: Vec<i16>,
    men: [[Bitboard; 5]; 2],
}

/// The accumulators of a position and of the positions before it on the line.
#[derive(Clone, Debug)]
pub struct Incremental {
    network: Arc<Network>,
    /// One entry a ply; the last is the position's.
    plies: Vec<Ply>,
    /// A ply's accumulators, White's then Black's, `hidden` numbers each, in the order
    /// of `plies`; longer than needed once the line has been deeper.
    values: Vec<i16>,
    /// Each side's last accumulator in each of its views: `VIEWS` White's, then Black's.
    cache: Vec<Cached>,
}

impl Incremental {
    /// The accumulators of `position`, made from nothing.
    pub fn new(network: Arc<Network>, position: &Position) -> Incremental {
        let hidden = network.hidden();
        let empty = Cached {
            values: network.accumulate(std::iter::empty()),
            men: [[0; 5]; 2],
        };
        let mut incremental = Incremental {
            plies: vec![Ply {
                views: [Color::White, Color::Black].map(|side| View::of(position, side)),
                change: None,
                made: [false; 2],
            }],
            values: vec![0; 2 * hidden * 64],
            cache: vec![empty; 2 * VIEWS],
            network,
        };
        incremental.make(position);
        incremental
    }

    /// The network in use.
    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// Notes that `moved` went from `from` to `to`, arriving as `arrived` (a promotion
    /// changes the kind) and taking `captured`.
    pub fn play(
        &mut self,
        moved: Piece,
        (from, to): (Square, Square),
        arrived: Piece,
        captured: Option<Piece>,
    ) {
        let mut views = self.plies[self.plies.len() - 1].views;
        if moved.kind == Kind::King {
            views[moved.color.index()] = View::with_king(moved.color, to);
        }
        self.plies.push(Ply {
            views,
            change: Some(Change {
                moved,
                from,
                to,
                arrived,
                captured,
            }),
            made: [false; 2],
        });
        let needed = self.plies.len() * 2 * self.network.hidden();
        if self.values.len() < needed {
            self.values.resize(2 * needed, 0);
        }
    }

    /// Back to the position before the last move.
    pub fn undo(&mut self) {
        if self.plies.len() > 1 {
            self.plies.pop();
        }
    }

    /// Makes both sides' accumulators of `position`, the line's last.
    pub fn make(&mut self, position: &Position) {
        for side in [Color::White, Color::Black] {
            self.make_side(position, side);
        }
    }

    /// The accumulators of the line's last position, White's and Black's, as
    /// [`Incremental::make`] made them.
    pub fn accumulators(&self) -> [&[i16]; 2] {
        let hidden = self.network.hidden();
        let at = (self.plies.len() - 1) * 2 * hidden;
        let (white, black) = self.values[at..at + 2 * hidden].split_at(hidden);
        [white, black]
    }

    /// The evaluation of `position`, the line's last, in centipawns for the side to
    /// move.
    pub fn evaluate(&mut self, position: &Position) -> i32 {
        self.make(position);
        let [white, black] = self.accumulators();
        let men = position.occupied().count_ones();
        match position.side_to_move() {
            Color::White => self.network.output(white, black, men),
            Color::Black => self.network.output(black, white, men),
        }
    }

    /// Makes `side`'s accumulator of the last ply: from the last one made in the same
    /// view, ply by ply, or from the cache when the view changed since.
    fn make_side(&mut self, position: &Position, side: Color) {
        let s = side.index();
        let last = self.plies.len() - 1;
        if self.plies[last].made[s] {
            return;
        }
        let view = self.plies[last].views[s];
        let mut start = last;
        let from = loop {
            if self.plies[start].made[s] {
                break Some(start);
            }
            if start == 0 || self.plies[start - 1].views[s] != view {
                break None;
            }
            start -= 1;
        };
        match from {
            Some(made) => {
                for ply in made + 1..=last {
                    self.step(side, view, ply);
                }
            }
            None => self.make_from_cache(position, side, view),
        }
    }

    /// `side`'s accumulator of `ply` from that of the ply before, in `view`.
    fn step(&mut self, side: Color, view: View, ply: usize) {
        let hidden = self.network.hidden();
        let at = (2 * ply + side.index()) * hidden;
        let (earlier, later) = self.values.split_at_mut(at);
        let base = &earlier[at - 2 * hidden..][..hidden];
        let out = &mut later[..hidden];
        let change = self.plies[ply]
            .change
            .expect("a ply after the root has its move");
        let input = |piece: Piece, square| view.input(piece.color, piece.kind, square);
        let added = [input(change.arrived, change.to)];
        match change.captured {
            Some(victim) => self.network.update(
                out,
                base,
                &added,
                &[input(change.moved, change.from), input(victim, change.to)],
            ),
            None => self
                .network
                .update(out, base, &added, &[input(change.moved, change.from)]),
        }
        self.plies[ply].made[side.index()] = true;
    }

    /// `side`'s accumulator of `position`, the last ply, from the side's last one in
    /// `view`: the men that differ added or taken away.
    fn make_from_cache(&mut self, position: &Position, side: Color, view: View) {
        let hidden = self.network.hidden();
        let last = self.plies.len() - 1;
        let cached = &mut self.cache[side.index() * VIEWS + view.slot()];
        let (mut added, mut removed) = (Vec::new(), Vec::new());
        for color in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                let now = position.men(color, kind);
                let was = &mut cached.men[color.index()][kind.index()];
                for square in Squares::new(now & !*was) {
                    added.push(view.input(color, kind, square));
                }
                for square in Squares::new(*was & !now) {
                    removed.push(view.input(color, kind, square));
                }
                *was = now;
            }
        }
        let at = (2 * last + side.index()) * hidden;
        let out = &mut self.values[at..at + hidden];
        self.network.update(out, &cached.values, &added, &removed);
        cached.values.copy_from_slice(out);
        self.plies[last].made[side.index()] = true;
    }
}
