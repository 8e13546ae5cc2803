//! Monte Carlo tree search with max^n backups, for more than two players (Mentula).
//!
//! Every node keeps, for every player, the sum of the rewards that passed through it;
//! the player to move at a node chooses among its children by UCT on its own
//! component (max^n), so each player is assumed to pursue its own result, not to gang
//! up on the root. A simulation evaluates the new leaf at once, without a random
//! playout (random moves only added noise: with six of them the search lost to
//! Best-Reply Search at equal nodes, average place 2.69 of 4; evaluated at once it
//! holds its own, 2.50): rewards in [0, 1] per player from the evaluation (a logistic
//! of each player's lead over the others' mean), or the game's own result when it ends
//! (1 for the winner, 1/n each for a shared place). The move played is the root's most
//! visited child.
//!
//! Implicit minimax backups (Lanctot et al. 2014): every node also keeps the max^n
//! value of the tree below it (a leaf: its evaluation; a node: the values of the child
//! best for its mover), and selection weighs it [`IMPLICIT`] against the mean reward.
//! Mean rewards alone blur a line's best reply with its poor ones, so more simulations
//! bought little: with 8 times the simulations of three others, average place 2.22 of 4
//! (100 games); with the backed-up values, 1.93 +- 0.10 (400 games), at no cost at equal
//! simulations against Best-Reply Search (2.52 against 2.50).

use super::limits::{Budget, Limits};
use super::multi_player::MultiPlayerGame;
use super::{Info, Score, SearchResult};

/// The exploration constant of UCT.
const EXPLORATION: f64 = 0.6;
/// The weight of the max^n value against the mean reward in selection (0.4: average
/// place 2.13 with 8 times the simulations; 0.8: 1.93, both over 100 games).
const IMPLICIT: f64 = 0.8;
/// Evaluation points per unit of the logistic.
const SCALE: f64 = 150.0;
/// Iterations a `depth` limit stands for: `depth * ITERATIONS_PER_DEPTH`.
pub const ITERATIONS_PER_DEPTH: u64 = 1_000;
/// The most players a node keeps rewards for.
const MAX_PLAYERS: usize = 4;

/// A node of the tree. Compact and without memory of its own (its children are a
/// linked list of siblings, its untried moves are generated again when one is
/// expanded), so that the tree's memory is its length times this size, bounded by
/// `Hash`, and is given back at once when the search ends.
struct Node<M> {
    /// The move that leads here (none at the root).
    mv: Option<M>,
    /// The child expanded first (0: none; the root is no one's child).
    first_child: u32,
    /// The next child of the same parent (0: none).
    next_sibling: u32,
    visits: u32,
    /// The player to move here (who chooses among the children).
    mover: u8,
    /// The node's legal moves (none at a game's end), and how many are children.
    moves: u8,
    expanded: u8,
    /// Per player: the sum of rewards.
    rewards: [f64; MAX_PLAYERS],
    /// Per player: the max^n value of the tree below (a new leaf: its rewards).
    backed: [f64; MAX_PLAYERS],
}

impl<M> Node<M> {
    fn fully_expanded(&self) -> bool {
        self.expanded == self.moves
    }
}

/// The children of `node`, most recently expanded first.
fn children<M>(tree: &[Node<M>], node: usize) -> impl Iterator<Item = u32> + '_ {
    let first = tree[node].first_child;
    std::iter::successors((first != 0).then_some(first), move |&c| {
        let next = tree[c as usize].next_sibling;
        (next != 0).then_some(next)
    })
}

/// The child of `node` that `key` ranks highest; among equals the one expanded last
/// (the first met).
fn best_child<M, K: PartialOrd>(
    tree: &[Node<M>],
    node: usize,
    key: impl Fn(u32) -> K,
) -> Option<u32> {
    children(tree, node)
        .map(|c| (c, key(c)))
        .reduce(|best, next| if next.1 > best.1 { next } else { best })
        .map(|(c, _)| c)
}

/// The most nodes a tree of `memory_bytes` holds.
pub fn max_nodes<M>(memory_bytes: usize) -> usize {
    (memory_bytes / std::mem::size_of::<Node<M>>()).clamp(16, u32::MAX as usize)
}

/// The rewards of a position for every player, in [0, 1].
fn rewards<G: MultiPlayerGame>(position: &G) -> [f64; MAX_PLAYERS] {
    let players = G::PLAYERS.len();
    let mut rewards = [0.0; MAX_PLAYERS];
    if let Some(outcome) = position.outcome() {
        let leaders = outcome.leaders();
        for (p, reward) in rewards.iter_mut().enumerate().take(players) {
            if leaders.contains(&p) {
                *reward = 1.0 / leaders.len() as f64;
            }
        }
        return rewards;
    }
    let values: Vec<f64> = position.evaluate_all().into_iter().map(f64::from).collect();
    for (reward, r) in rewards.iter_mut().zip(rewards_of(&values)) {
        *reward = r;
    }
    rewards
}

/// Each player's reward in [0, 1] for evaluations `values`: a logistic of its lead over
/// the others' mean. Also how the alpha-beta searches' evaluations become the rewards
/// Mentula's first-place model reads (`crate::search::wdl`).
pub fn rewards_of(values: &[f64]) -> Vec<f64> {
    let players = values.len();
    let total: f64 = values.iter().sum();
    values
        .iter()
        .map(|&v| {
            let others = (total - v) / (players.max(2) - 1) as f64;
            1.0 / (1.0 + (-(v - others) / SCALE).exp())
        })
        .collect()
}

/// The legal moves of `position`, the most promising (captures) last: a node's
/// untried moves are taken from the end.
fn ordered_moves<G: MultiPlayerGame>(position: &G, moves: &mut Vec<G::Move>) {
    position.legal_moves(moves);
    moves.sort_by_cached_key(|&m| position.order_key(m));
}

/// Searches `position` for the player to move, with a tree of at most `memory_bytes`
/// (beyond it the tree stops growing and the search goes on in it).
pub fn search<G: MultiPlayerGame>(
    position: &mut G,
    limits: &Limits,
    memory_bytes: usize,
    report: &mut dyn FnMut(&Info),
) -> SearchResult<G::Move> {
    assert!(G::PLAYERS.len() <= MAX_PLAYERS, "a node keeps four players");
    let max_nodes = max_nodes::<G::Move>(memory_bytes);
    let mut limits = limits.clone();
    // A depth limit becomes an iteration limit; the budget's depth is then not used.
    // `mate n` searches 2n - 1 plies deep in a game without mates (protocol.md): as a
    // depth, or the search would have no end but `stop`.
    let mate_depth = limits.mate.map(|n| 2 * n.max(1) - 1);
    if let Some(depth) = limits.depth.take().or(mate_depth) {
        let iterations = depth as u64 * ITERATIONS_PER_DEPTH;
        limits.nodes = Some(limits.nodes.map_or(iterations, |n| n.min(iterations)));
    }
    let mut budget = Budget::new(&limits);
    let players = G::PLAYERS.len();
    let canonical = G::NOTATIONS[0].notation;
    let mut root_moves = Vec::new();
    position.legal_moves(&mut root_moves);
    // Only the moves asked for, when some are (and any of them is legal).
    let asked = |m: &G::Move| {
        limits
            .searchmoves
            .contains(&position.format_move(*m, canonical))
    };
    if root_moves.iter().any(asked) {
        root_moves.retain(asked);
    }
    let lines_wanted = limits.multi_pv.clamp(1, root_moves.len().max(1));
    // Untried moves are taken from the end: the most promising (captures) first.
    root_moves.sort_by_cached_key(|&m| position.order_key(m));
    let mut tree: Vec<Node<G::Move>> = Vec::new();
    tree.push(Node {
        mv: None,
        first_child: 0,
        next_sibling: 0,
        visits: 0,
        rewards: [0.0; MAX_PLAYERS],
        mover: position.to_move() as u8,
        moves: root_moves.len() as u8,
        expanded: 0,
        backed: rewards(position),
    });
    let mut iterations: u64 = 0;
    let mut deepest = 0;
    let mut path: Vec<u32> = Vec::with_capacity(64);
    let mut moves = Vec::with_capacity(16);
    let mut info = Info {
        depth: 0,
        seldepth: 0,
        scores: vec![Score::Centi(0); players],
        nodes: 0,
        time_ms: 0,
        pv: root_moves
            .last()
            .map(|&m| position.format_move(m, canonical))
            .into_iter()
            .collect(),
        multi_pv: None,
        hashfull: None,
        wdl: None,
    };
    let mut next_report = 4_096;
    // A forced move is searched too, for its scores; when only the clock limits the
    // search, no longer than the simulations of the forced-move depth.
    let mut forced_cap = u64::MAX;
    if root_moves.len() == 1 {
        budget.forced_move();
        if budget.depth < super::limits::MAX_DEPTH {
            forced_cap = budget.depth as u64 * ITERATIONS_PER_DEPTH;
        }
    }
    let searching = position.outcome().is_none() && !root_moves.is_empty();
    while searching && iterations < forced_cap && !budget.must_stop(iterations) {
        iterations += 1;
        // Selection: down through fully expanded nodes.
        path.clear();
        path.push(0);
        let mut node = 0usize;
        while tree[node].fully_expanded() && tree[node].first_child != 0 {
            let parent_log = (tree[node].visits.max(1) as f64).ln();
            let mover = tree[node].mover as usize;
            let best = best_child(&tree, node, |c| {
                let child = &tree[c as usize];
                let n = child.visits.max(1) as f64;
                (1.0 - IMPLICIT) * child.rewards[mover] / n
                    + IMPLICIT * child.backed[mover]
                    + EXPLORATION * (parent_log / n).sqrt()
            })
            .expect("children");
            position.play(tree[best as usize].mv.expect("a child has a move"));
            node = best as usize;
            path.push(best);
        }
        // Expansion: one untried move, evaluated at once (while the tree has room).
        let mut leaf_rewards = None;
        if !tree[node].fully_expanded() && tree.len() < max_nodes {
            if tree.len() == tree.capacity() {
                // Grown by hand, so that the tree never holds more than its bound.
                let more = tree.len().min(max_nodes - tree.len());
                tree.reserve_exact(more);
            }
            // The untried moves are the node's moves not yet expanded, from the end.
            if node == 0 {
                moves.clone_from(&root_moves);
            } else {
                ordered_moves(position, &mut moves);
            }
            let mv = moves[moves.len() - 1 - tree[node].expanded as usize];
            position.play(mv);
            let reward = rewards(position);
            let child_moves = if position.outcome().is_some() {
                0
            } else {
                position.legal_moves(&mut moves);
                moves.len() as u8
            };
            let id = tree.len() as u32;
            let parent = &mut tree[node];
            let next_sibling = std::mem::replace(&mut parent.first_child, id);
            parent.expanded += 1;
            tree.push(Node {
                mv: Some(mv),
                first_child: 0,
                next_sibling,
                visits: 0,
                rewards: [0.0; MAX_PLAYERS],
                mover: position.to_move() as u8,
                moves: child_moves,
                expanded: 0,
                backed: reward,
            });
            leaf_rewards = Some(reward);
            path.push(id);
        }
        deepest = deepest.max(path.len() - 1);
        // Simulation: the leaf's evaluation (a game's end reached again: its result).
        let reward = leaf_rewards.unwrap_or_else(|| rewards(position));
        for _ in 0..path.len() - 1 {
            position.undo();
        }
        // Backpropagation: every player's reward on every node of the path.
        for &id in &path {
            let n = &mut tree[id as usize];
            n.visits += 1;
            for (sum, r) in n.rewards.iter_mut().zip(&reward) {
                *sum += r;
            }
        }
        // The max^n values, from the leaf's parent up: each node takes the values of
        // its child best for its mover.
        for &id in path.iter().rev().skip(1) {
            let mover = tree[id as usize].mover as usize;
            let best = best_child(&tree, id as usize, |c| tree[c as usize].backed[mover]);
            if let Some(best) = best {
                tree[id as usize].backed = tree[best as usize].backed;
            }
        }
        if iterations >= next_report {
            next_report *= 2;
            let lines = root_lines(&tree, position, deepest, iterations, &budget, lines_wanted);
            let lines = with_fill(lines, tree.len(), max_nodes);
            info = report_lines(lines, report);
        }
    }
    if searching {
        let lines = root_lines(&tree, position, deepest, iterations, &budget, lines_wanted);
        let lines = with_fill(lines, tree.len(), max_nodes);
        info = report_lines(lines, report);
    }
    budget.wait_if_infinite();
    let best = best_child(&tree, 0, |c| tree[c as usize].visits)
        .and_then(|c| tree[c as usize].mv)
        .or_else(|| root_moves.last().copied());
    info.nodes = iterations;
    info.time_ms = budget.elapsed_ms();
    SearchResult {
        best_move: best,
        info,
    }
}

/// The reports: the `lines` most visited root moves (best first), each with its most
/// visited line and its expected rewards (per mille per player).
fn root_lines<G: MultiPlayerGame>(
    tree: &[Node<G::Move>],
    position: &G,
    deepest: usize,
    iterations: u64,
    budget: &Budget,
    lines: usize,
) -> Vec<Info> {
    let canonical = G::NOTATIONS[0].notation;
    // Most visited first; among equals the later child, as `max_by_key` chooses.
    let mut ranked: Vec<(usize, u32)> = children(tree, 0)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .enumerate()
        .collect();
    ranked.sort_by_key(|&(i, c)| std::cmp::Reverse((tree[c as usize].visits, i)));
    let mut infos: Vec<Info> = ranked
        .iter()
        .take(lines)
        .enumerate()
        .map(|(k, &(_, first))| {
            let mut line = Vec::new();
            let mut p = position.clone();
            let mut next = Some(first);
            while let Some(child) = next {
                let mv = tree[child as usize].mv.expect("a child has a move");
                line.push(p.format_move(mv, canonical));
                p.play(mv);
                if tree[child as usize].visits < 8 {
                    break;
                }
                next = best_child(tree, child as usize, |c| tree[c as usize].visits);
            }
            let n = &tree[first as usize];
            Info {
                depth: line.len() as u32,
                seldepth: deepest as u32,
                scores: n.rewards[..G::PLAYERS.len()]
                    .iter()
                    .map(|r| Score::Centi((1000.0 * r / n.visits.max(1) as f64).round() as i32))
                    .collect(),
                nodes: iterations,
                time_ms: budget.elapsed_ms(),
                pv: line,
                multi_pv: (lines > 1).then_some(k + 1),
                hashfull: None,
                wdl: None,
            }
        })
        .collect();
    if infos.is_empty() {
        infos.push(Info {
            depth: 0,
            seldepth: deepest as u32,
            scores: vec![Score::Centi(0); G::PLAYERS.len()],
            nodes: iterations,
            time_ms: budget.elapsed_ms(),
            pv: Vec::new(),
            multi_pv: None,
            hashfull: None,
            wdl: None,
        });
    }
    infos
}

/// The lines with how full the tree is (per mille of its bound, UCI's `hashfull`).
fn with_fill(mut lines: Vec<Info>, nodes: usize, max_nodes: usize) -> Vec<Info> {
    let permille = (nodes as u64 * 1000 / max_nodes.max(1) as u64) as u32;
    for info in &mut lines {
        info.hashfull = Some(permille);
    }
    lines
}

/// Reports the best lines; gives the best one's report.
fn report_lines(lines: Vec<Info>, report: &mut dyn FnMut(&Info)) -> Info {
    for info in &lines {
        report(info);
    }
    lines.into_iter().next().expect("at least one report")
}
