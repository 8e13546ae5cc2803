//! The engine's options as one list: those every game has (Hash, Threads, Move
//! Overhead, MultiPV, Ponder) and each game's own engine and rule options. Front ends
//! print the list in their own form and hand every setting to [`super::Engine`].

use std::time::Duration;

use super::error::EngineError;
use crate::game::{OptionError, RuleOption};
use crate::search::{EngineOption, EngineOptionKind};

/// Transposition table size at start, in MiB.
pub const DEFAULT_HASH_MIB: usize = 64;
pub const MAX_HASH_MIB: usize = 16_384;
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;
/// The most lines `MultiPV` asks for.
pub const MAX_MULTI_PV: usize = 64;

/// What values an option takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        default: u64,
        min: u64,
        max: u64,
    },
    Combo {
        default: &'static str,
        values: &'static [&'static str],
    },
    Check {
        default: bool,
    },
    Text {
        default: &'static str,
    },
}

/// One option as the front ends list it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

impl OptionSpec {
    /// The UCI listing, `option name <name> type ...`, which the native protocol shares.
    pub fn uci_line(&self, name: &str) -> String {
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, values } => format!(
                "option name {name} type combo default {default} var {}",
                values.join(" var ")
            ),
            OptionKind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            // UCI has no way to write an empty default but this word.
            OptionKind::Text { default: "" } => {
                format!("option name {name} type string default <empty>")
            }
            OptionKind::Text { default } => {
                format!("option name {name} type string default {default}")
            }
        }
    }
}

/// The options every game has, within a session's bounds (`hash_mib`, `threads`: the
/// largest allowed).
pub fn common(hash_mib: usize, threads: usize) -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            name: "Hash",
            kind: OptionKind::Spin {
                default: DEFAULT_HASH_MIB.min(hash_mib) as u64,
                min: 1,
                max: MAX_HASH_MIB.min(hash_mib) as u64,
            },
        },
        OptionSpec {
            name: "Threads",
            kind: OptionKind::Spin {
                default: 1,
                min: 1,
                max: threads as u64,
            },
        },
        OptionSpec {
            name: "Move Overhead",
            kind: OptionKind::Spin {
                default: DEFAULT_MOVE_OVERHEAD_MS,
                min: 0,
                max: MAX_MOVE_OVERHEAD_MS,
            },
        },
        OptionSpec {
            name: "MultiPV",
            kind: OptionKind::Spin {
                default: 1,
                min: 1,
                max: MAX_MULTI_PV as u64,
            },
        },
        OptionSpec {
            name: "Ponder",
            kind: OptionKind::Check { default: false },
        },
    ]
}

/// A game's engine option, its values up to `limit` where it builds tables.
pub fn engine(option: &EngineOption, limit: Option<u32>) -> OptionSpec {
    let kind = match option.kind {
        EngineOptionKind::Number { default, min, max } => {
            let max = match limit {
                Some(limit) if option.builds_tables => max.min(limit),
                _ => max,
            };
            OptionKind::Spin {
                default: u64::from(default.min(max)),
                min: u64::from(min),
                max: u64::from(max),
            }
        }
        EngineOptionKind::Choice { default, values } => OptionKind::Combo {
            default: values[default],
            values,
        },
        EngineOptionKind::Path => OptionKind::Text { default: "" },
        EngineOptionKind::Check { default } => OptionKind::Check { default },
    };
    OptionSpec {
        name: option.name,
        kind,
    }
}

/// A game's rule option (its value a word the game reads).
pub fn rule(option: &RuleOption) -> OptionSpec {
    OptionSpec {
        name: option.name,
        kind: OptionKind::Text {
            default: option.default,
        },
    }
}

/// Whether `name` names the option `spec_name`: case and spaces do not matter
/// (`MoveOverhead`, `move overhead`).
pub fn names(spec_name: &str, name: &str) -> bool {
    let squeeze = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    squeeze(spec_name) == squeeze(name)
}

fn bad(name: &str, value: &str, takes: String) -> EngineError {
    EngineError::OptionValue(OptionError::bad_value(name, value, takes))
}

/// Reads a `Hash` value (MiB).
pub fn parse_hash(value: &str) -> Result<usize, EngineError> {
    value
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|m| (1..=MAX_HASH_MIB).contains(m))
        .ok_or_else(|| bad("Hash", value, format!("1 to {MAX_HASH_MIB} (MiB)")))
}

/// Reads a `Threads` value: 1 to `max`.
pub fn parse_threads(value: &str, max: usize) -> Result<usize, EngineError> {
    value
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|t| (1..=max).contains(t))
        .ok_or_else(|| bad("Threads", value, format!("1 to {max}")))
}

/// Reads a `Move Overhead` value (ms).
pub fn parse_move_overhead(value: &str) -> Result<Duration, EngineError> {
    value
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|m| *m <= MAX_MOVE_OVERHEAD_MS)
        .map(Duration::from_millis)
        .ok_or_else(|| {
            bad(
                "Move Overhead",
                value,
                format!("0 to {MAX_MOVE_OVERHEAD_MS} (ms)"),
            )
        })
}

/// Reads a `MultiPV` value: 1 to [`MAX_MULTI_PV`] lines.
pub fn parse_multi_pv(value: &str) -> Result<usize, EngineError> {
    value
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_MULTI_PV).contains(n))
        .ok_or_else(|| bad("MultiPV", value, format!("1 to {MAX_MULTI_PV}")))
}

/// Reads a check option's value: `true` or `false`.
pub fn parse_check(name: &str, value: &str) -> Result<bool, EngineError> {
    crate::search::parse_check(name, value).map_err(EngineError::OptionValue)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_names_match_without_case_or_spaces() {
        assert!(names("Move Overhead", "moveoverhead"));
        assert!(names("Move Overhead", "MOVE  OVERHEAD"));
        assert!(!names("Move Overhead", "Move"));
    }

    #[test]
    fn values_out_of_range_are_refused_with_what_is_taken() {
        assert_eq!(parse_hash("16").unwrap(), 16);
        assert_eq!(
            parse_hash("0").unwrap_err().to_string(),
            "Hash takes 1 to 16384 (MiB), not \"0\""
        );
        assert_eq!(parse_multi_pv("3").unwrap(), 3);
        assert!(parse_multi_pv("65").is_err());
        assert!(parse_check("Ponder", "yes").is_err());
        assert!(parse_check("Ponder", "TRUE").unwrap());
    }
}
