//! The network in integers, as the search evaluates it, and its file.
//!
//! Each side's view (see [`super::features`]) has an accumulator: the first layer's
//! bias plus the columns of its active inputs, `hidden` numbers, kept up to date as men
//! move. The side to move's accumulator and then the other's, each clipped to 0..=QA,
//! are the hidden layer; the output is their dot product with the output weights plus
//! the output bias, scaled to centipawns. The output layer may have several *buckets*
//! (a set of output weights and a bias each), chosen by how many men are on the board,
//! so that what the hidden values are worth may differ from the opening to the ending.
//!
//! A file is a 64-byte header and the weights, every number little-endian:
//!
//! | bytes | contents |
//! |---|---|
//! | 0..8 | `LUDUSNNU` |
//! | 8..10 | format version, 2 (1: as 2 with one output bucket and zero at 42..44) |
//! | 10..26 | the game's name (`senamukha`), padded with zero bytes |
//! | 26..30 | inputs a view (4 king buckets x 1,210) |
//! | 30..32 | hidden size |
//! | 32..34, 34..36, 36..38 | QA, QB and the output scale |
//! | 38..42 | CRC-32 of everything after the header |
//! | 42..44 | output buckets, 1 to 16 |
//! | 44..64 | zero |
//!
//! then the input weights (i16, input-major: an input's `hidden` weights together), the
//! hidden biases (i16), the output weights (i16, bucket by bucket, each the side to
//! move's half first) and the output biases (i32, one a bucket).

use std::fmt;

use super::super::board::{Color, Kind, Squares};
use super::super::position::Position;
use super::features::{INPUTS, View};
use super::simd;

/// The first layer's quantisation: a float weight w is stored as round(w * QA), and the
/// hidden values are clipped to 0..=QA (float 0..=1).
pub const QA: i32 = 255;
/// The output layer's: round(w * QB). Large, as the output weights are few and each
/// one's rounding counts (their products with the clipped hidden values are summed in
/// 32 bits, so nothing bounds QB but i16).
pub const QB: i32 = 1024;
/// Centipawns per unit of the float network's output.
pub const SCALE: i32 = 400;

/// The largest hidden layer (a view's accumulator).
pub const MAX_HIDDEN: usize = 2048;
/// What a hidden layer's size may be, in words.
pub const HIDDEN_SIZES: &str = "the hidden size is a multiple of 16 from 16 to 2048";

/// Whether `hidden` may be a hidden layer's size: whole vectors of 16 lanes, and few
/// enough that the output's sum stays within i32.
pub fn hidden_size_is_valid(hidden: usize) -> bool {
    hidden > 0 && hidden <= MAX_HIDDEN && hidden.is_multiple_of(16)
}

/// The most output buckets a network may have.
pub const MAX_OUTPUT_BUCKETS: usize = 16;

/// The output bucket of a position with `men` men on the board (kings included), of
/// `buckets`: the range of 1 to 64 men cut into `buckets` equal parts (with 8, men 1 to
/// 8 are bucket 0, ..., 57 to 64 bucket 7; the start's 62 men are in the last).
#[inline]
pub fn output_bucket(men: u32, buckets: usize) -> usize {
    (men.saturating_sub(1) as usize * buckets / 64).min(buckets - 1)
}

const MAGIC: &[u8; 8] = b"LUDUSNNU";
/// The version written; version 1 (one output bucket) is read too.
const VERSION: u16 = 2;
const HEADER: usize = 64;
const GAME: &str = "senamukha";

/// A network in integers.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    output_buckets: usize,
    /// `INPUTS * hidden`, an input's weights together.
    input_weights: Vec<i16>,
    input_bias: Vec<i16>,
    /// `output_buckets * 2 * hidden`: each bucket's against the side to move's
    /// accumulator, then the other's.
    output_weights: Vec<i16>,
    /// One a bucket.
    output_bias: Vec<i32>,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network({} hidden, {} output buckets)",
            self.hidden, self.output_buckets
        )
    }
}

/// The largest network file read: a network of the widest hidden layer `ludus train`
/// makes (2,048) with 16 output buckets takes about 20 MiB.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Why a network file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// The file cannot be read (the system's reason).
    Read(String),
    /// Not a ludus network file, or one of another game.
    Foreign(String),
    /// A format version this build does not read.
    Version(u16),
    /// Inputs or quantisation other than this build's.
    Shape(String),
    /// Shorter or longer than its header says.
    Length { expected: usize, found: usize },
    /// The weights do not match the header's checksum.
    Checksum,
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Read(why) => write!(f, "the file cannot be read: {why}"),
            NetworkError::Foreign(why) => write!(f, "not a Sena-Mukha network file: {why}"),
            NetworkError::Version(v) => write!(
                f,
                "network format version {v}; this build reads versions 1 and {VERSION}"
            ),
            NetworkError::Shape(why) => write!(f, "a network this build cannot use: {why}"),
            NetworkError::Length { expected, found } => write!(
                f,
                "the network file is {found} bytes, its header says {expected}: it is cut \
                 off or has bytes after its end"
            ),
            NetworkError::Checksum => write!(
                f,
                "the network's weights do not match its checksum: the file is damaged"
            ),
        }
    }
}

impl std::error::Error for NetworkError {}

impl Network {
    /// A network from its parts (the trainer's quantised weights); the number of
    /// output buckets is that of `output_bias`.
    pub fn new(
        hidden: usize,
        input_weights: Vec<i16>,
        input_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Network {
        let output_buckets = output_bias.len();
        assert!((1..=MAX_OUTPUT_BUCKETS).contains(&output_buckets));
        assert_eq!(input_weights.len(), INPUTS * hidden);
        assert_eq!(input_bias.len(), hidden);
        assert_eq!(output_weights.len(), output_buckets * 2 * hidden);
        Network {
            hidden,
            output_buckets,
            input_weights,
            input_bias,
            output_weights,
            output_bias,
        }
    }

    /// The hidden layer's size (a view's accumulator).
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The number of output buckets.
    pub fn output_buckets(&self) -> usize {
        self.output_buckets
    }

    /// The weights: the inputs' (input-major), the hidden biases, the output weights
    /// (bucket by bucket) and the output biases.
    pub fn weights(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (
            &self.input_weights,
            &self.input_bias,
            &self.output_weights,
            &self.output_bias,
        )
    }

    /// The weights of `input`.
    #[inline]
    fn column(&self, input: usize) -> &[i16] {
        &self.input_weights[input * self.hidden..(input + 1) * self.hidden]
    }

    /// `view`'s accumulator of `position`, from nothing, into `out` (`hidden` long).
    pub fn refresh_into(&self, position: &Position, view: View, out: &mut [i16]) {
        let mut columns = Vec::with_capacity(64);
        for color in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                for square in Squares::new(position.men(color, kind)) {
                    columns.push(self.column(view.input(color, kind, square)));
                }
            }
        }
        simd::add_sub(out, &self.input_bias, &columns, &[]);
    }

    /// The accumulator of a view whose active inputs are `inputs`.
    pub fn accumulate(&self, inputs: impl Iterator<Item = usize>) -> Vec<i16> {
        let columns: Vec<&[i16]> = inputs.map(|input| self.column(input)).collect();
        let mut values = vec![0; self.hidden];
        simd::add_sub(&mut values, &self.input_bias, &columns, &[]);
        values
    }

    /// `out` = the accumulator `base` with the inputs `added` added and `removed` taken
    /// away (all `hidden` long).
    #[inline]
    pub fn update(&self, out: &mut [i16], base: &[i16], added: &[usize], removed: &[usize]) {
        match (added, removed) {
            // A move, and a capture: the cases the search meets at every node.
            (&[a], &[r]) => simd::add_sub(out, base, &[self.column(a)], &[self.column(r)]),
            (&[a], &[r, s]) => simd::add_sub(
                out,
                base,
                &[self.column(a)],
                &[self.column(r), self.column(s)],
            ),
            _ => {
                let added: Vec<&[i16]> = added.iter().map(|&i| self.column(i)).collect();
                let removed: Vec<&[i16]> = removed.iter().map(|&i| self.column(i)).collect();
                simd::add_sub(out, base, &added, &removed)
            }
        }
    }

    /// The evaluation in centipawns from the side to move's view, given its
    /// accumulator and the other side's, of a position with `men` men on the board.
    pub fn output(&self, mover: &[i16], other: &[i16], men: u32) -> i32 {
        let bucket = output_bucket(men, self.output_buckets);
        let weights = &self.output_weights[bucket * 2 * self.hidden..][..2 * self.hidden];
        let (ours, theirs) = weights.split_at(self.hidden);
        // With the trainer's bounds (|w| <= 1.98 * QB) and 2 x 2,048 hidden values at
        // most, the sum stays within i32.
        let top = QA as i16;
        let sum = simd::clipped_dot(mover, ours, top) + simd::clipped_dot(other, theirs, top);
        let sum = i64::from(sum) + i64::from(self.output_bias[bucket]);
        (sum * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `position` from the side to move's view, every accumulator
    /// made from nothing.
    pub fn evaluate(&self, position: &Position) -> i32 {
        let mover = position.side_to_move();
        let mut ours = vec![0; self.hidden];
        let mut theirs = vec![0; self.hidden];
        self.refresh_into(position, View::of(position, mover), &mut ours);
        self.refresh_into(position, View::of(position, mover.other()), &mut theirs);
        self.output(&ours, &theirs, position.occupied().count_ones())
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(body_length(self.hidden, self.output_buckets));
        for w in self
            .input_weights
            .iter()
            .chain(&self.input_bias)
            .chain(&self.output_weights)
        {
            body.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            body.extend_from_slice(&b.to_le_bytes());
        }
        let mut out = vec![0u8; HEADER];
        out[..8].copy_from_slice(MAGIC);
        out[8..10].copy_from_slice(&VERSION.to_le_bytes());
        out[10..10 + GAME.len()].copy_from_slice(GAME.as_bytes());
        out[26..30].copy_from_slice(&(INPUTS as u32).to_le_bytes());
        out[30..32].copy_from_slice(&(self.hidden as u16).to_le_bytes());
        out[32..34].copy_from_slice(&(QA as u16).to_le_bytes());
        out[34..36].copy_from_slice(&(QB as u16).to_le_bytes());
        out[36..38].copy_from_slice(&(SCALE as u16).to_le_bytes());
        out[38..42].copy_from_slice(&crc32fast::hash(&body).to_le_bytes());
        out[42..44].copy_from_slice(&(self.output_buckets as u16).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// The network in the file at `path`: a regular file of at most
    /// [`MAX_FILE_BYTES`].
    pub fn read(path: &std::path::Path) -> Result<Network, NetworkError> {
        let bytes = crate::files::read_bounded(path, MAX_FILE_BYTES)
            .map_err(|e| NetworkError::Read(e.to_string()))?;
        Network::from_bytes(&bytes)
    }

    /// A network read from a file's bytes; anything wrong is refused with what.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(NetworkError::Foreign(
                "it does not start with LUDUSNNU".into(),
            ));
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let version = u16_at(8);
        if version != 1 && version != VERSION {
            return Err(NetworkError::Version(version));
        }
        let mut game = GAME.as_bytes().to_vec();
        game.resize(16, 0);
        if bytes[10..26] != game[..] {
            let name = String::from_utf8_lossy(&bytes[10..26]);
            return Err(NetworkError::Foreign(format!(
                "it is a network of {:?}",
                name.trim_end_matches('\0')
            )));
        }
        let inputs = u32::from_le_bytes(bytes[26..30].try_into().expect("4 bytes")) as usize;
        if inputs != INPUTS {
            return Err(NetworkError::Shape(format!(
                "{inputs} inputs a view, this build has {INPUTS}"
            )));
        }
        let hidden = u16_at(30) as usize;
        if !hidden_size_is_valid(hidden) {
            return Err(NetworkError::Shape(format!(
                "a hidden layer of {hidden}; {HIDDEN_SIZES}"
            )));
        }
        let quantisation = [u16_at(32), u16_at(34), u16_at(36)].map(i32::from);
        if quantisation != [QA, QB, SCALE] {
            return Err(NetworkError::Shape(format!(
                "QA, QB and scale {quantisation:?}, this build's are {:?}",
                [QA, QB, SCALE]
            )));
        }
        // Version 1 had one output bucket and zero where version 2 counts them.
        let output_buckets = match version {
            1 => 1,
            _ => u16_at(42) as usize,
        };
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&output_buckets) {
            return Err(NetworkError::Shape(format!(
                "{output_buckets} output buckets; a network has 1 to {MAX_OUTPUT_BUCKETS}"
            )));
        }
        let expected = HEADER + body_length(hidden, output_buckets);
        if bytes.len() != expected {
            return Err(NetworkError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let body = &bytes[HEADER..];
        if crc32fast::hash(body) != u32::from_le_bytes(bytes[38..42].try_into().expect("4")) {
            return Err(NetworkError::Checksum);
        }
        let mut words = body
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut take = |n: usize| -> Vec<i16> { words.by_ref().take(n).collect() };
        let input_weights = take(INPUTS * hidden);
        let input_bias = take(hidden);
        let output_weights = take(output_buckets * 2 * hidden);
        let output_bias = body[body.len() - 4 * output_buckets..]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        Ok(Network::new(
            hidden,
            input_weights,
            input_bias,
            output_weights,
            output_bias,
        ))
    }
}

/// The bytes after a file's header: the i16 input weights, hidden biases and output
/// weights, and an i32 output bias a bucket.
fn body_length(hidden: usize, output_buckets: usize) -> usize {
    2 * (INPUTS + 1 + 2 * output_buckets) * hidden + 4 * output_buckets
}
