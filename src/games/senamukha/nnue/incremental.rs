//! The network's accumulators along the line the search plays: one entry a ply, each
//! with both sides' views and accumulators, made from the entry before by adding and
//! taking away the columns of the men that moved (a king that changes its side's
//! view makes that side's accumulator anew). The entries live in one buffer that only
//! grows, so that a move allocates nothing once the line has been that deep.

use std::sync::Arc;

use super::super::board::{Color, Kind, Piece, Square};
use super::super::position::Position;
use super::features::View;
use super::network::Network;

/// The accumulators of a position and of the positions before it on the line.
#[derive(Clone, Debug)]
pub struct Incremental {
    network: Arc<Network>,
    /// A ply's views, White's and Black's; the last is the position's.
    views: Vec<[View; 2]>,
    /// A ply's accumulators, White's then Black's, `hidden` numbers each, in the order
    /// of `views`; longer than needed once the line has been deeper.
    values: Vec<i16>,
}

impl Incremental {
    /// The accumulators of `position`, made from nothing.
    pub fn new(network: Arc<Network>, position: &Position) -> Incremental {
        let hidden = network.hidden();
        let views = [Color::White, Color::Black].map(|side| View::of(position, side));
        let mut values = vec![0; 2 * hidden * 64];
        for side in [Color::White, Color::Black] {
            let out = &mut values[side.index() * hidden..][..hidden];
            network.refresh_into(position, views[side.index()], out);
        }
        let mut line = Vec::with_capacity(64);
        line.push(views);
        Incremental {
            network,
            views: line,
            values,
        }
    }

    /// The network in use.
    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// After `position` (already moved) saw `moved` go from `from` to `to`, arriving as
    /// `arrived` (a promotion changes the kind) and taking `captured`.
    pub fn play(
        &mut self,
        position: &Position,
        moved: Piece,
        (from, to): (Square, Square),
        arrived: Piece,
        captured: Option<Piece>,
    ) {
        let hidden = self.network.hidden();
        let ply = self.views.len() - 1;
        let entry = 2 * hidden;
        if self.values.len() < (ply + 2) * entry {
            self.values.resize((ply + 2) * entry * 2, 0);
        }
        let before = self.views[ply];
        let mut after = before;
        for side in [Color::White, Color::Black] {
            let view = before[side.index()];
            let at = (ply + 1) * entry + side.index() * hidden;
            let (earlier, later) = self.values.split_at_mut(at);
            let out = &mut later[..hidden];
            if moved.kind == Kind::King && moved.color == side {
                let moved_view = View::with_king(side, to);
                if moved_view != view {
                    self.network.refresh_into(position, moved_view, out);
                    after[side.index()] = moved_view;
                    continue;
                }
            }
            let base = &earlier[at - entry..][..hidden];
            let input = |piece: Piece, square| view.input(piece.color, piece.kind, square);
            let added = [input(arrived, to)];
            match captured {
                Some(victim) => {
                    self.network
                        .update(out, base, &added, &[input(moved, from), input(victim, to)])
                }
                None => self
                    .network
                    .update(out, base, &added, &[input(moved, from)]),
            }
        }
        self.views.push(after);
    }

    /// Back to the position before the last move.
    pub fn undo(&mut self) {
        if self.views.len() > 1 {
            self.views.pop();
        }
    }

    /// The current accumulators, White's and Black's.
    pub fn accumulators(&self) -> [&[i16]; 2] {
        let hidden = self.network.hidden();
        let at = (self.views.len() - 1) * 2 * hidden;
        let (white, black) = self.values[at..at + 2 * hidden].split_at(hidden);
        [white, black]
    }

    /// The evaluation in centipawns for `mover`, the side to move.
    pub fn evaluate(&self, mover: Color) -> i32 {
        let [white, black] = self.accumulators();
        match mover {
            Color::White => self.network.output(white, black),
            Color::Black => self.network.output(black, white),
        }
    }
}
