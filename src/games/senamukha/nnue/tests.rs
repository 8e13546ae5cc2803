//! The network's file, and the integer network against the float one.

use super::features::{INPUTS, PER_BUCKET, View};
use super::network::{Network, NetworkError};
use crate::game::{Game, Rng};
use crate::learning::train::{self, FloatNetwork, Samples, Settings};
use std::sync::Arc;

use crate::games::senamukha::{Color, Move, Position};

/// Positions of random games from the start (seeded), every ply.
fn random_positions(games: usize, plies: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut position = Position::start();
        for _ in 0..plies {
            out.push(position.clone());
            moves.clear();
            Game::legal_moves(&position, &mut moves);
            if moves.is_empty() || Game::outcome(&position).is_some() {
                break;
            }
            position.play(moves[rng.below(moves.len())]);
        }
    }
    out
}

/// A float network with weights as large as training makes them, so that rounding
/// shows, and `buckets` output buckets that differ.
pub(crate) fn grown_network(hidden: usize, buckets: usize, seed: u64) -> FloatNetwork {
    let mut net = FloatNetwork::random(hidden, buckets, seed);
    for w in net.input_weights.iter_mut() {
        *w *= 3.0;
    }
    for (i, w) in net.input_bias.iter_mut().enumerate() {
        *w = (i % 7) as f32 / 10.0;
    }
    for w in net.output_weights.iter_mut() {
        *w *= 10.0;
    }
    for (b, bias) in net.output_bias.iter_mut().enumerate() {
        *bias = 0.05 + 0.02 * b as f32;
    }
    net
}

/// A factor's weights count for the same man on the same square in every king bucket:
/// quantising adds them to each bucket's own column.
#[test]
fn quantising_adds_a_factor_to_the_column_of_every_bucket() {
    let hidden = 16;
    let mut net = grown_network(hidden, 1, 5);
    let man_on_square = 3 * 121 + 50;
    let factor = INPUTS + man_on_square;
    net.input_weights[factor * hidden..][..hidden].fill(0.25);
    let network = net.quantise();
    let bias = network.accumulate(std::iter::empty());
    for bucket in 0..4 {
        let input = bucket * PER_BUCKET + man_on_square;
        let with_it = network.accumulate(std::iter::once(input));
        let column: Vec<i32> = with_it
            .iter()
            .zip(&bias)
            .map(|(&a, &b)| i32::from(a) - i32::from(b))
            .collect();
        let expected: Vec<i32> = net.input_weights[input * hidden..][..hidden]
            .iter()
            .map(|&w| ((w + 0.25) * 255.0).round() as i32)
            .collect();
        assert_eq!(column, expected, "bucket {bucket}");
    }
}

#[test]
fn a_network_file_reads_back_as_written() {
    let network = grown_network(32, 8, 7).quantise();
    let bytes = network.to_bytes();
    assert_eq!(Network::from_bytes(&bytes), Ok(network));
}

/// Output buckets cut 1 to 64 men into equal parts; one bucket takes every position.
#[test]
fn the_output_bucket_follows_the_number_of_men() {
    use super::network::output_bucket;
    for men in [1, 30, 62, 64] {
        assert_eq!(output_bucket(men, 1), 0);
    }
    let eighths: Vec<usize> = [1, 8, 9, 16, 17, 32, 33, 56, 57, 62, 64]
        .iter()
        .map(|&men| output_bucket(men, 8))
        .collect();
    assert_eq!(eighths, [0, 0, 1, 1, 2, 3, 4, 6, 7, 7, 7]);
    assert_eq!(output_bucket(64, 16), 15);
    assert_eq!(output_bucket(5, 16), 1);
}

/// A network whose buckets differ only in their output bias evaluates each position
/// by its own bucket's, in integers and in floats; a network of one bucket made into
/// eight copies of it (as `--init` does) evaluates as before.
#[test]
fn the_evaluation_uses_the_bucket_of_the_positions_men() {
    let grown = grown_network(32, 1, 19);
    let one = grown.quantise();
    let eight = grown.clone().with_output_buckets(8).unwrap().quantise();
    assert!(grown.clone().with_output_buckets(1).is_some());
    let mut distinct = grown.with_output_buckets(8).unwrap();
    assert!(distinct.clone().with_output_buckets(4).is_none());
    distinct.output_weights.fill(0.0);
    for (b, bias) in distinct.output_bias.iter_mut().enumerate() {
        *bias = b as f32;
    }
    let network = distinct.quantise();
    let mut seen = std::collections::BTreeSet::new();
    let mut evaluations = std::collections::BTreeSet::new();
    for position in random_positions(6, 300, 23) {
        let bucket = (position.occupied().count_ones() as i32 - 1) / 8;
        seen.insert(bucket);
        assert_eq!(network.evaluate(&position), bucket * 400);
        assert_eq!(distinct.evaluate(&position), bucket as f32 * 400.0);
        let evaluation = one.evaluate(&position);
        assert_eq!(evaluation, eight.evaluate(&position));
        evaluations.insert(evaluation);
    }
    assert!(seen.len() >= 2, "the positions span buckets: {seen:?}");
    assert!(
        evaluations.len() > 10,
        "the evaluations vary: {evaluations:?}"
    );
}

/// A file of version 1 (before output buckets) reads as a network of one bucket; a
/// count of buckets out of range is refused.
#[test]
fn a_version_1_network_file_reads_as_one_output_bucket() {
    let network = grown_network(32, 1, 29).quantise();
    let mut bytes = network.to_bytes();
    assert_eq!(&bytes[8..10], &[2, 0]);
    assert_eq!(&bytes[42..44], &[1, 0]);
    bytes[8] = 1;
    bytes[42] = 0;
    assert_eq!(Network::from_bytes(&bytes), Ok(network));
    let mut none = grown_network(32, 8, 29).quantise().to_bytes();
    none[42] = 0;
    let error = Network::from_bytes(&none).unwrap_err();
    assert!(error.to_string().contains("0 output buckets"), "{error}");
    none[42] = 17;
    assert!(matches!(
        Network::from_bytes(&none),
        Err(NetworkError::Shape(_))
    ));
}

#[test]
fn a_damaged_cut_or_foreign_network_file_is_refused() {
    let bytes = grown_network(32, 8, 7).quantise().to_bytes();
    let mut damaged = bytes.clone();
    damaged[1000] ^= 1;
    assert_eq!(Network::from_bytes(&damaged), Err(NetworkError::Checksum));
    let cut = &bytes[..bytes.len() - 2];
    assert!(matches!(
        Network::from_bytes(cut),
        Err(NetworkError::Length { .. })
    ));
    let mut foreign = bytes.clone();
    foreign[10..19].copy_from_slice(b"mangala\0\0");
    let error = Network::from_bytes(&foreign).unwrap_err();
    assert!(error.to_string().contains("\"mangala\""), "{error}");
    let mut newer = bytes.clone();
    newer[8] = 9;
    assert_eq!(Network::from_bytes(&newer), Err(NetworkError::Version(9)));
    assert!(matches!(
        Network::from_bytes(b"LUDUSDAT and more"),
        Err(NetworkError::Foreign(_))
    ));
    let mut odd = bytes;
    odd[30] = 33;
    let error = Network::from_bytes(&odd).unwrap_err();
    assert!(error.to_string().contains("multiple of 16"), "{error}");
}

#[test]
fn the_integer_network_stays_close_to_the_float_one() {
    // Rounding the first layer to 1/255 and the output to 1/1024: over random games'
    // positions, with evaluations of up to about 27 pawns, the integer evaluation is on
    // average within 0.5 % of that range of the float one, and at worst within 2 %.
    // (`ludus train` reports the same for the network it writes, on held-out data.)
    let float = grown_network(64, 8, 11);
    let network = float.quantise();
    let (mut worst, mut sum, mut count, mut spread) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for position in random_positions(20, 120, 5) {
        let exact = float.evaluate(&position);
        let apart = (exact - network.evaluate(&position) as f32).abs();
        worst = worst.max(apart);
        sum += apart;
        count += 1.0;
        spread = spread.max(exact.abs());
    }
    assert!(spread > 1000.0, "the evaluations vary ({spread})");
    let mean = sum / count;
    assert!(
        mean <= 0.005 * spread,
        "{mean} centipawns apart on average, range {spread}"
    );
    assert!(
        worst <= 0.02 * spread,
        "{worst} centipawns apart at worst, range {spread}"
    );
}

#[test]
fn the_evaluation_is_the_same_for_a_position_seen_from_the_other_side() {
    // Turning the board half round and giving the move to the other side changes
    // nothing the network sees.
    let network = grown_network(32, 8, 3).quantise();
    for position in random_positions(4, 60, 9) {
        let turned = turned(&position);
        assert_eq!(network.evaluate(&position), network.evaluate(&turned));
    }
}

/// `position` turned half round with the colours swapped.
fn turned(position: &Position) -> Position {
    let fen = position.fen();
    let mut fields = fen.split(' ');
    let board = fields.next().unwrap();
    let side = fields.next().unwrap();
    let rows: Vec<String> = board
        .split('/')
        .rev()
        .map(|row| {
            let mut cells: Vec<String> = Vec::new();
            let mut digits = String::new();
            for c in row.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                } else {
                    if !digits.is_empty() {
                        cells.push(std::mem::take(&mut digits));
                    }
                    let swapped = if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    };
                    cells.push(swapped.to_string());
                }
            }
            if !digits.is_empty() {
                cells.push(digits);
            }
            cells.reverse();
            cells.concat()
        })
        .collect();
    let side = if side == "w" { "b" } else { "w" };
    Position::from_fen(&format!("{} {side} - - 0 1", rows.join("/"))).unwrap()
}

/// The positions as samples, scored and given a result by `label`: every tenth held out,
/// the rest to train on.
fn split_samples(
    positions: &[Position],
    label: impl Fn(&Position) -> (f32, f32),
) -> (Samples, Samples) {
    let (mut train_set, mut held_out) = (Samples::default(), Samples::default());
    for (i, position) in positions.iter().enumerate() {
        let (score, result) = label(position);
        let set = if i % 10 == 0 {
            &mut held_out
        } else {
            &mut train_set
        };
        set.push(position, score, result);
    }
    (train_set, held_out)
}

#[test]
fn training_lowers_the_loss_on_held_out_positions() {
    // Positions scored by material alone: a small network learns to follow it.
    let positions = random_positions(60, 100, 21);
    let (train_set, held_out) = split_samples(&positions, |position| {
        let score = material(position);
        let result = if score > 150.0 {
            1.0
        } else if score < -150.0 {
            0.0
        } else {
            0.5
        };
        (score, result)
    });
    let settings = Settings {
        hidden: 16,
        epochs: 8,
        batch: 256,
        rate: 0.01,
        threads: 2,
        ..Settings::default()
    };
    let scale = train::fit_score_scale(&train_set);
    let random = FloatNetwork::random(16, 1, settings.seed);
    let before = train::loss(&random, &held_out, scale, settings.lambda);
    let (random_error, hand_error) = train::score_errors(&random, &held_out, scale);
    let mut sink = Vec::new();
    let trained = train::train(&train_set, &held_out, &settings, None, &mut sink).unwrap();
    assert!(
        trained.held_out_loss < before * 0.7,
        "held-out loss {before} -> {}",
        trained.held_out_loss
    );
    // With lambda 1 the loss is the distance to the scores.
    assert!((trained.held_out_score_errors.0 - trained.held_out_loss).abs() < 1e-6);
    assert!(trained.held_out_score_errors.0 < random_error * 0.7);
    assert_eq!(trained.held_out_score_errors.1, hand_error);
    let log = String::from_utf8(sink).unwrap();
    assert!(log.contains("epoch 8 of 8"), "{log}");
    assert!(log.contains("(hand-written evaluation "), "{log}");
}

/// `--init`: a network read back from its file is, as floats, the one that was
/// quantised (it quantises to the same integers), and training from it starts where it
/// stood and goes on from there.
#[test]
fn training_goes_on_from_a_network_file() {
    let positions = random_positions(40, 100, 33);
    let (train_set, held_out) = split_samples(&positions, |position| (material(position), 0.5));
    let settings = Settings {
        hidden: 16,
        epochs: 4,
        batch: 256,
        rate: 0.01,
        threads: 2,
        ..Settings::default()
    };
    let first = train::train(&train_set, &held_out, &settings, None, &mut Vec::new()).unwrap();
    let quantised = first.network.quantise();
    let back = FloatNetwork::from_network(&quantised);
    assert_eq!(back.quantise(), quantised);

    let dir = std::env::temp_dir().join(format!("ludus-init-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("first.nnue");
    std::fs::write(&file, quantised.to_bytes()).unwrap();
    let scale = train::fit_score_scale(&train_set);
    let (start_error, _) = train::score_errors(&back, &held_out, scale);
    let (random_error, _) = train::score_errors(&FloatNetwork::random(16, 1, 1), &held_out, scale);
    let mut sink = Vec::new();
    let again = Settings {
        epochs: 1,
        rate: 0.001,
        init: Some(file.clone()),
        ..settings.clone()
    };
    let start = train::starting_network(&again).unwrap();
    assert!(start.is_some());
    let second = train::train(&train_set, &held_out, &again, start, &mut sink).unwrap();
    let log = String::from_utf8(sink).unwrap();
    assert!(
        log.contains(&format!(
            "train: the starting network: held out against the scores {start_error:.5}"
        )),
        "{log}"
    );
    assert!(
        start_error < random_error * 0.7,
        "{start_error} {random_error}"
    );
    assert!(
        second.held_out_score_errors.0 < start_error * 1.2,
        "{} from {start_error}",
        second.held_out_score_errors.0
    );

    // Another hidden size, or a file that is no network, is refused by name.
    let wider = Settings {
        hidden: 32,
        ..again.clone()
    };
    let error = train::starting_network(&wider).unwrap_err();
    assert!(
        error
            .to_string()
            .ends_with("has 16 hidden, not the 32 of --hidden"),
        "{error}"
    );
    let missing = Settings {
        init: Some(dir.join("missing.nnue")),
        ..again
    };
    let error = train::starting_network(&missing).unwrap_err();
    assert!(
        error.to_string().starts_with("--init ")
            && error.to_string().contains("the file cannot be read"),
        "{error}"
    );
    // The whole command refuses it before it reads the data (here: none there either).
    let error = train::run(
        &[dir.join("no-data.bin")],
        &dir.join("out.nnue"),
        &missing,
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(error.to_string().starts_with("--init "), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_yardstick_is_zero_for_the_evaluation_that_scored_the_positions() {
    let positions = random_positions(10, 60, 9);
    let (mut by_hand, mut by_material) = (Samples::default(), Samples::default());
    for position in &positions {
        let hand = crate::games::senamukha::eval::evaluate(position) as f32;
        by_hand.push(position, hand, 0.5);
        by_material.push(position, material(position), 0.5);
    }
    let net = FloatNetwork::random(16, 1, 1);
    let (network, hand) = train::score_errors(&net, &by_hand, 300.0);
    assert_eq!(hand, 0.0);
    assert!(network > 0.0);
    // Material alone is not the hand-written evaluation.
    assert!(train::score_errors(&net, &by_material, 300.0).1 > 0.0);
}

#[test]
fn training_is_the_same_whatever_the_threads() {
    let positions = random_positions(10, 60, 4);
    let mut train_set = Samples::default();
    let mut held_out = Samples::default();
    for (i, position) in positions.iter().enumerate() {
        let set = if i % 5 == 0 {
            &mut held_out
        } else {
            &mut train_set
        };
        set.push(position, material(position), 0.5);
    }
    let run = |threads| {
        let settings = Settings {
            hidden: 16,
            epochs: 2,
            batch: 64,
            threads,
            ..Settings::default()
        };
        train::train(&train_set, &held_out, &settings, None, &mut Vec::new())
            .unwrap()
            .network
    };
    assert_eq!(run(1), run(3));
}

/// White's material less Black's from the side to move's view (pawn 100).
fn material(position: &Position) -> f32 {
    use crate::games::senamukha::Kind;
    let worth = [100.0, 300.0, 500.0, 500.0, 0.0];
    let side = |color| -> f32 {
        Kind::ALL
            .iter()
            .map(|&k| position.men(color, k).count_ones() as f32 * worth[k.index()])
            .sum()
    };
    let white = side(Color::White) - side(Color::Black);
    if position.side_to_move() == Color::White {
        white
    } else {
        -white
    }
}

#[test]
fn views_give_inputs_within_the_network() {
    for position in random_positions(3, 50, 2) {
        for side in [Color::White, Color::Black] {
            let mut inputs = Vec::new();
            View::of(&position, side).inputs(&position, &mut inputs);
            assert!(inputs.iter().all(|&i| (i as usize) < INPUTS));
        }
    }
}

/// Plays `moves` from `start` with `network` attached, and takes them back, checking
/// that the accumulators kept along the line are those made from nothing, and so is
/// the evaluation: after every move and undo, then again evaluating only after every
/// third move and every second undo (so that an evaluation makes several plies at
/// once, and a king's new view comes from the cache several moves later).
fn check_incremental_along(network: &Arc<Network>, start: &Position, moves: &[Move]) {
    let check = |position: &mut Position| {
        let [white, black] = position.network_accumulators().unwrap();
        for (side, values) in [(Color::White, white), (Color::Black, black)] {
            let mut fresh = vec![0; network.hidden()];
            network.refresh_into(position, View::of(position, side), &mut fresh);
            assert_eq!(values, fresh, "{side:?} after {:?}", position.fen());
        }
        assert_eq!(
            position.network_evaluation(),
            Some(network.evaluate(position))
        );
    };
    for (after_moves, after_undos) in [(1, 1), (3, 2)] {
        let mut position = start.clone();
        position.use_network(Some(network.clone()));
        check(&mut position);
        for (i, &mv) in moves.iter().enumerate() {
            position.play(mv);
            if (i + 1) % after_moves == 0 {
                check(&mut position);
            }
        }
        for i in 0..moves.len() {
            position.undo();
            if (i + 1) % after_undos == 0 {
                check(&mut position);
            }
        }
        check(&mut position);
        assert_eq!(position.fen(), start.fen());
    }
}

#[test]
fn the_incremental_accumulators_equal_a_refresh_after_every_move_and_undo() {
    let network = Arc::new(grown_network(32, 8, 13).quantise());
    let mut rng = Rng(77);
    let mut moves = Vec::new();
    for _ in 0..20 {
        let mut position = Position::start();
        let mut line = Vec::new();
        for _ in 0..200 {
            moves.clear();
            Game::legal_moves(&position, &mut moves);
            if moves.is_empty() || Game::outcome(&position).is_some() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            position.play(mv);
            line.push(mv);
        }
        check_incremental_along(&network, &Position::start(), &line);
    }
}

/// The same along the seed's three games, their side lines included: real play, with
/// its king walks (views refreshed), captures and promotions.
#[test]
fn the_incremental_accumulators_equal_a_refresh_along_the_seed_games() {
    let network = Arc::new(grown_network(32, 8, 17).quantise());
    let mut plies = 0;
    for name in ["game1.txt", "game2.txt", "game3.txt"] {
        let path = format!("{}/tests/data/senamukha/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let replay = crate::record::replay(Position::start(), &text).unwrap();
        check_incremental_along(&network, &Position::start(), &replay.moves);
        plies += replay.moves.len();
        for variation in &replay.variations {
            // A side line from the main line's position before its branch.
            if variation.parent.is_none() {
                let mut start = Position::start();
                for &mv in &replay.moves[..variation.branch_ply] {
                    start.play(mv);
                }
                check_incremental_along(&network, &start, &variation.moves);
                plies += variation.moves.len();
            }
        }
    }
    assert!(plies > 300, "only {plies} plies");
}
