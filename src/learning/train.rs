//! `ludus train`: fits a network to `ludus datagen` positions on the CPU.
//!
//! The network is trained in floats and then quantised ([`FloatNetwork::quantise`]).
//! Each position is fitted to a mix of its search score and its game's result, both
//! as a probability of winning: the target is `lambda * σ(score / S) + (1 - lambda) *
//! result` (result 1, ½ or 0) and the loss the squared difference to `σ(eval / S)`.
//! S, the centipawns of one unit of the logistic, is fitted to the data first: the S
//! that best predicts the results from the scores. `lambda` is 1 by default: a share of
//! the result made networks that foresaw the game's end better than the search did but
//! told a position's moves apart worse, and lost (protocol-spec/nnue.md).
//!
//! Beside the loss, the held-out positions give a yardstick that follows playing
//! strength: how far the network's evaluations are from the search's scores, against
//! how far the hand-written evaluation's are ([`score_errors`]).
//!
//! The first layer is sparse (about 50 of 4,840 inputs are active in a position), so a
//! position's forward and backward passes touch only its active inputs' columns. A
//! batch is cut into a fixed number of chunks whose gradients are computed on the
//! threads and summed in chunk order, so that a seed gives the same network whatever
//! the number of threads. Adam steps the weights; the rate follows a cosine from the
//! given rate down to a hundredth of it. A share of the games (not of the positions:
//! a game's positions are alike) is held out, and its loss reported.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::games::senamukha::Position;
use crate::games::senamukha::eval;
use crate::games::senamukha::nnue::features::{INPUTS, PER_BUCKET, View};
use crate::games::senamukha::nnue::network::{
    MAX_OUTPUT_BUCKETS, Network, QA, QB, SCALE, output_bucket,
};
use crate::learning::datagen::{self, DatagenError};

/// How `ludus train` trains.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The hidden layer's size (a view's accumulator).
    pub hidden: usize,
    /// Output buckets, chosen by the number of men on the board
    /// ([`crate::games::senamukha::nnue::network::output_bucket`]).
    pub output_buckets: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions a step.
    pub batch: usize,
    /// Adam's rate at the start.
    pub rate: f32,
    /// The search score's share in the target; the rest is the game's result.
    pub lambda: f32,
    /// The share of the games held out.
    pub holdout: f64,
    pub seed: u64,
    pub threads: usize,
    /// A network file to start from instead of random weights (`--init`): training
    /// goes on from it on new data.
    pub init: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hidden: 256,
            output_buckets: 1,
            epochs: 10,
            batch: 1024,
            rate: 0.001,
            lambda: 1.0,
            holdout: 0.05,
            seed: 1,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            init: None,
        }
    }
}

impl Settings {
    /// Refuses a setting out of its range, naming it.
    pub fn check(&self) -> Result<(), TrainError> {
        let wrong = |why: String| Err(TrainError::Settings(why));
        if !crate::games::senamukha::nnue::network::hidden_size_is_valid(self.hidden) {
            return wrong(format!(
                "--hidden {}: {}",
                self.hidden,
                crate::games::senamukha::nnue::network::HIDDEN_SIZES
            ));
        }
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&self.output_buckets) {
            return wrong(format!(
                "--output-buckets {}: from 1 to {MAX_OUTPUT_BUCKETS}",
                self.output_buckets
            ));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return wrong(format!("--lambda {}: a share from 0 to 1", self.lambda));
        }
        if !(self.holdout > 0.0 && self.holdout < 1.0) {
            return wrong(format!(
                "--holdout {}: a share above 0 and below 1",
                self.holdout
            ));
        }
        if !(self.rate > 0.0 && self.rate.is_finite()) || self.batch == 0 {
            return wrong("--rate and --batch must be above 0".into());
        }
        Ok(())
    }
}

/// The chunks a batch is cut into (see the module's comment).
const CHUNKS: usize = 8;
/// The largest float weight of the first layer: 62 men and the bias, each at most
/// 1.98 * QA, stay within an i16 accumulator. An input's weight is the sum of its own
/// and its factor's (see [`FloatNetwork`]), each at most half of this.
const INPUT_BOUND: f32 = 1.98;
/// The first layer's columns in training: every input's own, then the factors', one for
/// each input of a bucket.
const TRAIN_INPUTS: usize = INPUTS + PER_BUCKET;

/// The factor column shared by `input` and the same man on the same square in every
/// other king bucket.
#[inline]
fn factor(input: usize) -> usize {
    INPUTS + input % PER_BUCKET
}
/// The largest float output weight (round(w * QB) fits i16 by far).
const OUTPUT_BOUND: f32 = 1.98;

/// Why training failed.
#[derive(Debug)]
pub enum TrainError {
    Data(DatagenError),
    /// No position to train on, or none held out.
    TooFew(String),
    /// A setting out of its range.
    Settings(String),
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The network to start from cannot be used.
    Init {
        path: PathBuf,
        error: crate::games::senamukha::nnue::network::NetworkError,
    },
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Data(e) => e.fmt(f),
            TrainError::TooFew(why) | TrainError::Settings(why) => f.write_str(why),
            TrainError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            TrainError::Init { path, error } => {
                write!(f, "--init {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for TrainError {}

impl From<DatagenError> for TrainError {
    fn from(e: DatagenError) -> Self {
        TrainError::Data(e)
    }
}

/// Training positions as the network sees them: each position's active inputs in the
/// side to move's view and then in the other's (the same number in both: one a man),
/// its score, the hand-written evaluation and its game's result from the side to
/// move's view.
#[derive(Default)]
pub struct Samples {
    /// Where each position's inputs start in `inputs`; one more than the positions.
    starts: Vec<u32>,
    inputs: Vec<u16>,
    scores: Vec<f32>,
    /// The hand-written evaluation, the yardstick of [`score_errors`].
    hand: Vec<f32>,
    /// 1 won, 0.5 drawn, 0 lost.
    results: Vec<f32>,
}

impl Samples {
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// Adds a position with its score (centipawns) and result (1, ½, 0), all from the
    /// side to move's view.
    pub fn push(&mut self, position: &Position, score: f32, result: f32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let mover = position.side_to_move();
        for side in [mover, mover.other()] {
            View::of(position, side).append_inputs(position, &mut self.inputs);
        }
        self.starts.push(self.inputs.len() as u32);
        self.scores.push(score);
        self.hand.push(eval::evaluate(position) as f32);
        self.results.push(result);
    }

    /// Position `i`'s inputs in the mover's view and in the other's.
    fn views(&self, i: usize) -> (&[u16], &[u16]) {
        let all = &self.inputs[self.starts[i] as usize..self.starts[i + 1] as usize];
        all.split_at(all.len() / 2)
    }
}

/// Reads the positions of `paths` (datagen files of Sena-Mukha) and splits them by
/// game into training and held-out positions: a game is held out with probability
/// `holdout`, drawn from the seed and the file and game numbers.
pub fn load(paths: &[PathBuf], holdout: f64, seed: u64) -> Result<[Samples; 2], TrainError> {
    let mut split = [Samples::default(), Samples::default()];
    for (file, path) in paths.iter().enumerate() {
        datagen::read_each::<Position>(path, &mut |record| {
            let key = seed ^ ((file as u64) << 32) ^ u64::from(record.game);
            let draw = crate::game::splitmix64(key).1 as f64 / u64::MAX as f64;
            let result = (f32::from(record.result) + 1.0) / 2.0;
            split[usize::from(draw < holdout)].push(
                &record.position,
                f32::from(record.score),
                result,
            );
        })?;
    }
    Ok(split)
}

/// σ(x).
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The centipawns S of one unit of the logistic that best predict the results from the
/// scores (least squares of σ(score / S) against the result), to 1 %.
pub fn fit_score_scale(samples: &Samples) -> f32 {
    let error = |s: f32| -> f64 {
        samples
            .scores
            .iter()
            .zip(&samples.results)
            .map(|(&score, &result)| f64::from(sigmoid(score / s) - result).powi(2))
            .sum()
    };
    // The error is unimodal in log S: a golden-section search over 20..5000.
    let (mut low, mut high) = (20f32.ln(), 5000f32.ln());
    let ratio = (5f32.sqrt() - 1.0) / 2.0;
    while high - low > 0.01 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(a.exp()) < error(b.exp()) {
            high = b;
        } else {
            low = a;
        }
    }
    ((low + high) / 2.0).exp()
}

/// The network in floats, as it is trained.
///
/// An input's weights in training are the sum of its own column and of a factor column
/// that it shares with the same man on the same square in the other king buckets: what
/// a man on a square is worth whatever the king's bucket is learnt from every position,
/// and the buckets' own columns learn only how they differ, which they can from fewer
/// positions. Quantising adds the two, so the network the engine reads is the same shape.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub hidden: usize,
    /// `TRAIN_INPUTS * hidden`, a column's weights together: the inputs', then the
    /// factors'.
    pub input_weights: Vec<f32>,
    pub input_bias: Vec<f32>,
    /// `2 * hidden` a bucket, bucket by bucket: the side to move's half first.
    pub output_weights: Vec<f32>,
    /// One a bucket.
    pub output_bias: Vec<f32>,
}

impl FloatNetwork {
    /// A network of small random weights drawn from the seed.
    pub fn random(hidden: usize, output_buckets: usize, seed: u64) -> FloatNetwork {
        let mut state = seed;
        let mut uniform = |bound: f32| {
            let (next, draw) = crate::game::splitmix64(state);
            state = next;
            ((draw >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * bound
        };
        let output_bound = 1.0 / (2.0 * hidden as f32).sqrt();
        FloatNetwork {
            hidden,
            // The factors start at zero: the network starts as one without them.
            input_weights: (0..INPUTS * hidden)
                .map(|_| uniform(0.1))
                .chain(std::iter::repeat_n(0.0, PER_BUCKET * hidden))
                .collect(),
            input_bias: vec![0.0; hidden],
            output_weights: (0..output_buckets * 2 * hidden)
                .map(|_| uniform(output_bound))
                .collect(),
            output_bias: vec![0.0; output_buckets],
        }
    }

    /// The number of output buckets.
    pub fn output_buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// The network with `buckets` output buckets: each a copy of its one bucket, so
    /// that training goes on from a network of one bucket (as the buckets learn to
    /// differ) without changing an evaluation. `None` when it has other buckets.
    pub fn with_output_buckets(mut self, buckets: usize) -> Option<FloatNetwork> {
        if self.output_buckets() == buckets {
            return Some(self);
        }
        if self.output_buckets() != 1 {
            return None;
        }
        self.output_weights = self.output_weights.repeat(buckets);
        self.output_bias = self.output_bias.repeat(buckets);
        Some(self)
    }

    /// The float network a quantised one was made from, as near as the integers tell:
    /// each input's weights go to its factor column as far as the four king buckets
    /// share them (their mean) and to its own column for the rest.
    pub fn from_network(network: &Network) -> FloatNetwork {
        let h = network.hidden();
        let (input_weights, input_bias, output_weights, output_bias) = network.weights();
        let buckets = INPUTS / PER_BUCKET;
        let float = |q: i16| f32::from(q) / QA as f32;
        let mut weights = vec![0.0f32; TRAIN_INPUTS * h];
        let (own, shared) = weights.split_at_mut(INPUTS * h);
        // One man on one square: its column in each king bucket, and their factor.
        for (square_man, mean) in shared.chunks_exact_mut(h).enumerate() {
            let columns = (0..buckets).map(|bucket| (bucket * PER_BUCKET + square_man) * h);
            for at in columns.clone() {
                for (m, &q) in mean.iter_mut().zip(&input_weights[at..][..h]) {
                    *m += float(q) / buckets as f32;
                }
            }
            for at in columns {
                for ((w, &q), m) in own[at..][..h]
                    .iter_mut()
                    .zip(&input_weights[at..])
                    .zip(&*mean)
                {
                    *w = float(q) - m;
                }
            }
        }
        let mut net = FloatNetwork {
            hidden: h,
            input_weights: weights,
            input_bias: input_bias
                .iter()
                .map(|&q| f32::from(q) / QA as f32)
                .collect(),
            output_weights: output_weights
                .iter()
                .map(|&q| f32::from(q) / QB as f32)
                .collect(),
            output_bias: output_bias
                .iter()
                .map(|&b| b as f32 / (QA * QB) as f32)
                .collect(),
        };
        net.clip();
        net
    }

    /// The accumulator of a view with `inputs` active.
    fn accumulate(&self, inputs: &[u16], out: &mut [f32]) {
        out.copy_from_slice(&self.input_bias);
        for &input in inputs {
            for at in [input as usize, factor(input as usize)] {
                let column = &self.input_weights[at * self.hidden..][..self.hidden];
                for (o, w) in out.iter_mut().zip(column) {
                    *o += w;
                }
            }
        }
    }

    /// Calls `each` with every position of `samples` (its index) and the raw output on
    /// it.
    fn each_output(&self, samples: &Samples, mut each: impl FnMut(usize, f32)) {
        let h = self.hidden;
        let (mut ours, mut theirs) = (vec![0.0f32; h], vec![0.0f32; h]);
        for i in 0..samples.len() {
            let (mover, other) = samples.views(i);
            self.accumulate(mover, &mut ours);
            self.accumulate(other, &mut theirs);
            each(i, self.output(&ours, &theirs, mover.len() as u32));
        }
    }

    /// The raw output (centipawns / SCALE) given both views' accumulators, of a
    /// position with `men` men.
    fn output(&self, mover: &[f32], other: &[f32], men: u32) -> f32 {
        let bucket = output_bucket(men, self.output_buckets());
        let weights = &self.output_weights[bucket * 2 * self.hidden..][..2 * self.hidden];
        let (ours, theirs) = weights.split_at(self.hidden);
        let dot = |values: &[f32], weights: &[f32]| -> f32 {
            values
                .iter()
                .zip(weights)
                .map(|(v, w)| v.clamp(0.0, 1.0) * w)
                .sum()
        };
        dot(mover, ours) + dot(other, theirs) + self.output_bias[bucket]
    }

    /// The evaluation of `position` in centipawns from the side to move's view.
    pub fn evaluate(&self, position: &Position) -> f32 {
        let mover = position.side_to_move();
        let mut inputs = Vec::with_capacity(64);
        let mut ours = vec![0.0; self.hidden];
        let mut theirs = vec![0.0; self.hidden];
        View::of(position, mover).inputs(position, &mut inputs);
        self.accumulate(&inputs, &mut ours);
        View::of(position, mover.other()).inputs(position, &mut inputs);
        self.accumulate(&inputs, &mut theirs);
        self.output(&ours, &theirs, position.occupied().count_ones()) * SCALE as f32
    }

    /// The network in integers (see [`crate::games::senamukha::nnue::network`]): each input's column plus its
    /// factor's.
    pub fn quantise(&self) -> Network {
        let round = |w: f32, q: i32| (w * q as f32).round() as i16;
        let h = self.hidden;
        let merged = (0..INPUTS).flat_map(|input| {
            let own = &self.input_weights[input * h..][..h];
            let shared = &self.input_weights[factor(input) * h..][..h];
            own.iter().zip(shared).map(move |(a, b)| round(a + b, QA))
        });
        Network::new(
            self.hidden,
            merged.collect(),
            self.input_bias.iter().map(|&w| round(w, QA)).collect(),
            self.output_weights.iter().map(|&w| round(w, QB)).collect(),
            self.output_bias
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        )
    }

    fn clip(&mut self) {
        for w in &mut self.input_weights {
            *w = w.clamp(-INPUT_BOUND / 2.0, INPUT_BOUND / 2.0);
        }
        for w in &mut self.input_bias {
            *w = w.clamp(-INPUT_BOUND, INPUT_BOUND);
        }
        for w in &mut self.output_weights {
            *w = w.clamp(-OUTPUT_BOUND, OUTPUT_BOUND);
        }
    }
}

/// How targets and predictions are compared: S and lambda.
#[derive(Clone, Copy, Debug)]
struct Target {
    score_scale: f32,
    lambda: f32,
}

impl Target {
    /// The target probability of a position.
    fn of(self, score: f32, result: f32) -> f32 {
        self.lambda * sigmoid(score / self.score_scale) + (1.0 - self.lambda) * result
    }
}

/// One chunk's gradient: dense in shape, but only the touched inputs' columns are
/// non-zero, and only they are summed and cleared.
struct Gradient {
    input_weights: Vec<f32>,
    touched: Vec<bool>,
    touched_list: Vec<u16>,
    input_bias: Vec<f32>,
    output_weights: Vec<f32>,
    output_bias: Vec<f32>,
    loss: f64,
}

impl Gradient {
    fn new(hidden: usize, output_buckets: usize) -> Gradient {
        Gradient {
            input_weights: vec![0.0; TRAIN_INPUTS * hidden],
            touched: vec![false; TRAIN_INPUTS],
            touched_list: Vec::new(),
            input_bias: vec![0.0; hidden],
            output_weights: vec![0.0; output_buckets * 2 * hidden],
            output_bias: vec![0.0; output_buckets],
            loss: 0.0,
        }
    }

    fn clear(&mut self, hidden: usize) {
        for &input in &self.touched_list {
            self.input_weights[input as usize * hidden..][..hidden].fill(0.0);
            self.touched[input as usize] = false;
        }
        self.touched_list.clear();
        self.input_bias.fill(0.0);
        self.output_weights.fill(0.0);
        self.output_bias.fill(0.0);
        self.loss = 0.0;
    }

    /// Adds the gradient of the loss of positions `which` of `samples` (and the
    /// loss itself).
    fn add(&mut self, net: &FloatNetwork, samples: &Samples, which: &[u32], target: Target) {
        let h = net.hidden;
        let mut ours = vec![0.0f32; h];
        let mut theirs = vec![0.0f32; h];
        let mut down = vec![0.0f32; h];
        for &i in which {
            let i = i as usize;
            let (mover, other) = samples.views(i);
            net.accumulate(mover, &mut ours);
            net.accumulate(other, &mut theirs);
            let men = mover.len() as u32;
            let bucket = output_bucket(men, net.output_buckets());
            let y = net.output(&ours, &theirs, men);
            let p = sigmoid(y * SCALE as f32 / target.score_scale);
            let t = target.of(samples.scores[i], samples.results[i]);
            self.loss += f64::from((p - t) * (p - t));
            let g = 2.0 * (p - t) * p * (1.0 - p) * SCALE as f32 / target.score_scale;
            self.output_bias[bucket] += g;
            for (half, (values, inputs)) in
                [(&ours, mover), (&theirs, other)].into_iter().enumerate()
            {
                let at = (2 * bucket + half) * h;
                let weights = &net.output_weights[at..][..h];
                let grads = &mut self.output_weights[at..][..h];
                for j in 0..h {
                    let v = values[j];
                    grads[j] += g * v.clamp(0.0, 1.0);
                    down[j] = if v > 0.0 && v < 1.0 {
                        g * weights[j]
                    } else {
                        0.0
                    };
                    self.input_bias[j] += down[j];
                }
                for &input in inputs {
                    for at in [input as usize, factor(input as usize)] {
                        if !self.touched[at] {
                            self.touched[at] = true;
                            self.touched_list.push(at as u16);
                        }
                        let column = &mut self.input_weights[at * h..][..h];
                        for (c, d) in column.iter_mut().zip(&down) {
                            *c += d;
                        }
                    }
                }
            }
        }
    }
}

/// The loss of `net` over `samples` (mean squared error of the win probability).
pub fn loss(net: &FloatNetwork, samples: &Samples, score_scale: f32, lambda: f32) -> f64 {
    let target = Target {
        score_scale,
        lambda,
    };
    let mut sum = 0.0;
    net.each_output(samples, |i, raw| {
        let p = sigmoid(raw * SCALE as f32 / score_scale);
        let t = target.of(samples.scores[i], samples.results[i]);
        sum += f64::from((p - t) * (p - t));
    });
    sum / samples.len().max(1) as f64
}

/// How far evaluations are from the search's scores over `samples`, as the mean squared
/// difference of their win probabilities: the network's, then the hand-written
/// evaluation's. The result plays no part, so this measures what a search needs from
/// an evaluation (telling positions apart as a deeper look would) whatever `lambda`.
pub fn score_errors(net: &FloatNetwork, samples: &Samples, score_scale: f32) -> (f64, f64) {
    let (mut network, mut hand) = (0.0f64, 0.0f64);
    net.each_output(samples, |i, raw| {
        let score = sigmoid(samples.scores[i] / score_scale);
        let p = sigmoid(raw * SCALE as f32 / score_scale);
        network += f64::from((p - score) * (p - score));
        let q = sigmoid(samples.hand[i] / score_scale);
        hand += f64::from((q - score) * (q - score));
    });
    let n = samples.len().max(1) as f64;
    (network / n, hand / n)
}

/// Adam's moments of every weight, in the order of the network's fields.
struct Adam {
    first: Vec<f32>,
    second: Vec<f32>,
    steps: i32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;

impl Adam {
    fn new(parameters: usize) -> Adam {
        Adam {
            first: vec![0.0; parameters],
            second: vec![0.0; parameters],
            steps: 0,
        }
    }

    /// One step of every weight along the summed gradient `grads` (mean over `n`
    /// positions) at `rate`.
    fn step(&mut self, net: &mut FloatNetwork, grads: &Gradient, n: usize, rate: f32) {
        self.steps += 1;
        let correction1 = 1.0 - BETA1.powi(self.steps);
        let correction2 = 1.0 - BETA2.powi(self.steps);
        let scale = 1.0 / n as f32;
        let weights = net
            .input_weights
            .iter_mut()
            .chain(&mut net.input_bias)
            .chain(&mut net.output_weights)
            .chain(&mut net.output_bias);
        let gradients = grads
            .input_weights
            .iter()
            .chain(&grads.input_bias)
            .chain(&grads.output_weights)
            .chain(&grads.output_bias);
        for (((w, g), m), v) in weights
            .zip(gradients)
            .zip(&mut self.first)
            .zip(&mut self.second)
        {
            let g = g * scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w -= rate * (*m / correction1) / ((*v / correction2).sqrt() + 1e-8);
        }
        net.clip();
    }
}

/// A shuffle of `0..n` from the seed (Fisher-Yates).
fn shuffled(n: usize, seed: u64) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut state = seed;
    for i in (1..n).rev() {
        let (next, draw) = crate::game::splitmix64(state);
        state = next;
        order.swap(i, (draw % (i as u64 + 1)) as usize);
    }
    order
}

/// What training gave: the network and its losses.
#[derive(Debug)]
pub struct Trained {
    pub network: FloatNetwork,
    pub score_scale: f32,
    pub train_loss: f64,
    pub held_out_loss: f64,
    /// [`score_errors`] on the held-out positions: the network's and the hand-written
    /// evaluation's.
    pub held_out_score_errors: (f64, f64),
}

/// The network `--init` names, as floats, or `None` without `--init`. [`run`] reads it
/// before the data, so that a wrong file is refused at once rather than after the load.
pub fn starting_network(settings: &Settings) -> Result<Option<FloatNetwork>, TrainError> {
    let Some(path) = &settings.init else {
        return Ok(None);
    };
    let network = Network::read(path).map_err(|error| TrainError::Init {
        path: path.clone(),
        error,
    })?;
    if network.hidden() != settings.hidden {
        return Err(TrainError::Settings(format!(
            "--init {} has {} hidden, not the {} of --hidden",
            path.display(),
            network.hidden(),
            settings.hidden
        )));
    }
    FloatNetwork::from_network(&network)
        .with_output_buckets(settings.output_buckets)
        .map(Some)
        .ok_or_else(|| {
            TrainError::Settings(format!(
                "--init {} has {} output buckets, not 1 or the {} of --output-buckets",
                path.display(),
                network.output_buckets(),
                settings.output_buckets
            ))
        })
}

/// Trains a network on `train`, from `start` (see [`starting_network`]) or else from
/// random weights, reporting the loss on `held_out` after every epoch (and a progress
/// line every few seconds) to `progress`.
pub fn train(
    train: &Samples,
    held_out: &Samples,
    settings: &Settings,
    start: Option<FloatNetwork>,
    progress: &mut dyn Write,
) -> Result<Trained, TrainError> {
    if train.is_empty() || held_out.is_empty() {
        return Err(TrainError::TooFew(format!(
            "{} positions to train on and {} held out: both need some (more data, or \
             another --holdout)",
            train.len(),
            held_out.len()
        )));
    }
    let score_scale = fit_score_scale(train);
    let target = Target {
        score_scale,
        lambda: settings.lambda,
    };
    let _ = writeln!(
        progress,
        "train: {} positions, {} held out; score scale S = {score_scale:.0} centipawns",
        train.len(),
        held_out.len()
    );
    let mut net = match start {
        None => FloatNetwork::random(settings.hidden, settings.output_buckets, settings.seed),
        Some(net) => {
            let (error, hand) = score_errors(&net, held_out, score_scale);
            let _ = writeln!(
                progress,
                "train: the starting network: held out against the scores {error:.5} \
                 (hand-written evaluation {hand:.5})"
            );
            net
        }
    };
    let buckets = net.output_buckets();
    let parameters = (TRAIN_INPUTS + 1 + 2 * buckets) * settings.hidden + buckets;
    let mut adam = Adam::new(parameters);
    let mut chunks: Vec<Gradient> = (0..CHUNKS)
        .map(|_| Gradient::new(net.hidden, buckets))
        .collect();
    let mut total = Gradient::new(net.hidden, buckets);
    let batches = train.len().div_ceil(settings.batch);
    let steps = (batches * settings.epochs).max(1);
    let threads = settings.threads.clamp(1, CHUNKS);
    let started = Instant::now();
    let mut shown = Instant::now();
    let mut train_loss = f64::NAN;
    let mut held_out_loss = f64::NAN;
    let mut held_out_score_errors = (f64::NAN, f64::NAN);
    for epoch in 0..settings.epochs {
        let order = shuffled(train.len(), settings.seed ^ ((epoch as u64 + 1) << 20));
        let mut epoch_loss = 0.0;
        for (b, batch) in order.chunks(settings.batch).enumerate() {
            let step = epoch * batches + b;
            let progress_share = step as f32 / steps as f32;
            let rate = settings.rate
                * (0.01 + 0.99 * 0.5 * (1.0 + (std::f32::consts::PI * progress_share).cos()));
            let per_chunk = batch.len().div_ceil(CHUNKS).max(1);
            std::thread::scope(|scope| {
                let net = &net;
                let mut lanes: Vec<Vec<(&mut Gradient, &[u32])>> =
                    (0..threads).map(|_| Vec::new()).collect();
                for (c, (grad, part)) in chunks
                    .iter_mut()
                    .zip(batch.chunks(per_chunk).chain(std::iter::repeat(&[][..])))
                    .enumerate()
                {
                    lanes[c % threads].push((grad, part));
                }
                for lane in lanes {
                    scope.spawn(move || {
                        for (grad, part) in lane {
                            grad.clear(net.hidden);
                            grad.add(net, train, part, target);
                        }
                    });
                }
            });
            total.clear(net.hidden);
            for grad in &chunks {
                sum_into(&mut total, grad, net.hidden);
            }
            epoch_loss += total.loss;
            adam.step(&mut net, &total, batch.len(), rate);
            if shown.elapsed().as_secs_f64() >= 5.0 {
                shown = Instant::now();
                let done = step + 1;
                let _ = writeln!(
                    progress,
                    "train: epoch {} of {}, batch {} of {batches}, loss {:.5}, rate {rate:.6}, \
                     {:.0} positions/s",
                    epoch + 1,
                    settings.epochs,
                    b + 1,
                    total.loss / batch.len() as f64,
                    (done * settings.batch) as f64 / started.elapsed().as_secs_f64()
                );
            }
        }
        train_loss = epoch_loss / train.len() as f64;
        held_out_loss = loss(&net, held_out, score_scale, settings.lambda);
        held_out_score_errors = score_errors(&net, held_out, score_scale);
        let _ = writeln!(
            progress,
            "train: epoch {} of {}: loss {train_loss:.5}, held out {held_out_loss:.5}; held \
             out against the scores {:.5} (hand-written evaluation {:.5}), {:.0} s",
            epoch + 1,
            settings.epochs,
            held_out_score_errors.0,
            held_out_score_errors.1,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(Trained {
        network: net,
        score_scale,
        train_loss,
        held_out_loss,
        held_out_score_errors,
    })
}

/// Adds chunk gradient `part` to `total`.
fn sum_into(total: &mut Gradient, part: &Gradient, hidden: usize) {
    for &input in &part.touched_list {
        let at = input as usize;
        if !total.touched[at] {
            total.touched[at] = true;
            total.touched_list.push(input);
        }
        let into = &mut total.input_weights[at * hidden..][..hidden];
        for (t, p) in into
            .iter_mut()
            .zip(&part.input_weights[at * hidden..][..hidden])
        {
            *t += p;
        }
    }
    for (t, p) in total.input_bias.iter_mut().zip(&part.input_bias) {
        *t += p;
    }
    for (t, p) in total.output_weights.iter_mut().zip(&part.output_weights) {
        *t += p;
    }
    for (t, p) in total.output_bias.iter_mut().zip(&part.output_bias) {
        *t += p;
    }
    total.loss += part.loss;
}

/// `ludus train`: loads `data`, trains, writes the quantised network to `output` and
/// reports how far it is from the float one on the held-out positions.
pub fn run(
    data: &[PathBuf],
    output: &Path,
    settings: &Settings,
    progress: &mut dyn Write,
) -> Result<(), TrainError> {
    settings.check()?;
    let start = starting_network(settings)?;
    let started = Instant::now();
    let [train_set, held_out] = load(data, settings.holdout, settings.seed)?;
    let _ = writeln!(
        progress,
        "train: read {} positions in {:.1} s",
        train_set.len() + held_out.len(),
        started.elapsed().as_secs_f64()
    );
    let trained = train(&train_set, &held_out, settings, start, progress)?;
    let network = trained.network.quantise();
    std::fs::write(output, network.to_bytes()).map_err(|error| TrainError::Io {
        path: output.to_path_buf(),
        error,
    })?;
    let (mean, worst) = quantisation_error(&trained.network, &network, &held_out);
    let _ = writeln!(
        progress,
        "train: wrote {} ({} hidden): loss {:.5}, held out {:.5}, held out against the \
         scores {:.5} (hand-written evaluation {:.5}), score scale {:.0}; integers against \
         floats on the held-out positions: {mean:.2} centipawns apart on average, {worst:.1} \
         at most; {:.0} s",
        output.display(),
        settings.hidden,
        trained.train_loss,
        trained.held_out_loss,
        trained.held_out_score_errors.0,
        trained.held_out_score_errors.1,
        trained.score_scale,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// How far the quantised network's evaluations are from the float network's over
/// `samples`: the mean and the largest difference, in centipawns.
pub fn quantisation_error(
    float: &FloatNetwork,
    network: &Network,
    samples: &Samples,
) -> (f64, f64) {
    let (mut sum, mut worst) = (0.0f64, 0.0f64);
    float.each_output(samples, |i, raw| {
        let (mover, other) = samples.views(i);
        let exact = f64::from(raw * SCALE as f32);
        let integer = network.output(
            &network.accumulate(mover.iter().map(|&i| usize::from(i))),
            &network.accumulate(other.iter().map(|&i| usize::from(i))),
            mover.len() as u32,
        );
        let apart = (exact - f64::from(integer)).abs();
        sum += apart;
        worst = worst.max(apart);
    });
    (sum / samples.len().max(1) as f64, worst)
}
