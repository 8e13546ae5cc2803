//! The one option model: every option (the engine's own, each game's engine options,
//! each game's rule options) is an [`OptionSpec`], declared once with its kind, its
//! default, its range or choices and its help; one reader per kind reads its values
//! in the same words everywhere (a check takes `true`, `false`, `on` or `off`). The
//! engine lists, sets, refuses and documents options from these declarations, and the
//! front ends print them in their own forms.
//!
//! ```
//! use ludus::options::{OptionSpec, OptionValue};
//!
//! const PONDER: OptionSpec = OptionSpec::check("Ponder", false);
//! assert_eq!(PONDER.parse("on"), Ok(OptionValue::Check(true)));
//! assert!(PONDER.is_named("ponder"));
//! assert_eq!(PONDER.uci_line("Ponder"), "option name Ponder type check default false");
//! ```

use std::path::PathBuf;

use crate::game::OptionError;

/// One option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The option's name; matched without case or spaces (see [`OptionSpec::is_named`]).
    pub name: &'static str,
    pub kind: OptionKind,
    /// What the option does and which values it takes, for people (empty where the
    /// protocol documents it).
    pub help: &'static str,
    /// Whether the value sizes tables built in memory, whose time and memory grow
    /// steeply with it (Mangala II's Endgame Counters): a session served to others may
    /// set it only up to the server's table limit.
    pub sizes_tables: bool,
}

/// What values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A number from `min` to `max`, in `unit` (empty: none), such as `MiB`.
    Spin {
        default: u32,
        min: u32,
        max: u32,
        unit: &'static str,
    },
    /// One of `values`, by name (any case); the engine is given its index.
    Combo {
        default: usize,
        values: &'static [&'static str],
    },
    /// On or off.
    Check { default: bool },
    /// A path to files the engine reads (empty, the default: none).
    Path,
    /// A word the game's rules read (a rule option: `off` or a number, `on` or `off`,
    /// a choice): the game's rules check it, and front ends list it as a string.
    Word { default: &'static str },
}

/// A value read by [`OptionSpec::parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A number, or a choice's index.
    Number(u32),
    /// A path; `None` for the empty value.
    Path(Option<PathBuf>),
    /// On or off.
    Check(bool),
    /// A rule's word, as given (trimmed).
    Word(String),
}

impl OptionSpec {
    const fn new(name: &'static str, kind: OptionKind) -> OptionSpec {
        OptionSpec {
            name,
            kind,
            help: "",
            sizes_tables: false,
        }
    }

    /// A number from `min` to `max`.
    pub const fn spin(name: &'static str, default: u32, min: u32, max: u32) -> OptionSpec {
        OptionSpec::new(
            name,
            OptionKind::Spin {
                default,
                min,
                max,
                unit: "",
            },
        )
    }

    /// One of `values`, `values[default]` at first.
    pub const fn combo(
        name: &'static str,
        default: usize,
        values: &'static [&'static str],
    ) -> OptionSpec {
        OptionSpec::new(name, OptionKind::Combo { default, values })
    }

    /// On or off.
    pub const fn check(name: &'static str, default: bool) -> OptionSpec {
        OptionSpec::new(name, OptionKind::Check { default })
    }

    /// A path to files (none at first).
    pub const fn path(name: &'static str) -> OptionSpec {
        OptionSpec::new(name, OptionKind::Path)
    }

    /// A rule option: a word the game's rules read, with what it does.
    pub const fn rule(name: &'static str, default: &'static str, help: &'static str) -> OptionSpec {
        OptionSpec {
            help,
            ..OptionSpec::new(name, OptionKind::Word { default })
        }
    }

    /// The same spin, its numbers counted in `unit` (messages say so).
    pub const fn in_unit(self, unit: &'static str) -> OptionSpec {
        let OptionKind::Spin {
            default, min, max, ..
        } = self.kind
        else {
            return self;
        };
        OptionSpec {
            kind: OptionKind::Spin {
                default,
                min,
                max,
                unit,
            },
            ..self
        }
    }

    /// The same option, marked as sizing tables ([`OptionSpec::sizes_tables`]).
    pub const fn sizing_tables(self) -> OptionSpec {
        OptionSpec {
            sizes_tables: true,
            ..self
        }
    }

    /// The same spin with its largest value (and its default) at most `max`: the
    /// option as a session with that bound lists it.
    pub fn at_most(self, max: u32) -> OptionSpec {
        let OptionKind::Spin {
            default,
            min,
            max: own,
            unit,
        } = self.kind
        else {
            return self;
        };
        let max = own.min(max);
        OptionSpec {
            kind: OptionKind::Spin {
                default: default.min(max),
                min,
                max,
                unit,
            },
            ..self
        }
    }

    /// Whether `name` names this option: case and spaces do not matter
    /// (`MoveOverhead`, `move overhead`).
    pub fn is_named(&self, name: &str) -> bool {
        same_name(self.name, name)
    }

    /// The value it starts with as a number (a choice: its index; a check: 1 when on;
    /// a path or a word: 0).
    pub fn default_number(&self) -> u32 {
        match self.kind {
            OptionKind::Spin { default, .. } => default,
            OptionKind::Combo { default, .. } => default as u32,
            OptionKind::Check { default } => u32::from(default),
            OptionKind::Path | OptionKind::Word { .. } => 0,
        }
    }

    /// Reads a value: a number in range, one of the values by name, `true`/`false`/
    /// `on`/`off` (any case), a path (empty, or `<empty>` as GUIs send it, for none),
    /// or a rule's word (which the rules then check).
    pub fn parse(&self, value: &str) -> Result<OptionValue, OptionError> {
        match self.kind {
            OptionKind::Spin { min, max, unit, .. } => value
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|v| (min..=max).contains(v))
                .map(OptionValue::Number)
                .ok_or_else(|| {
                    let unit = if unit.is_empty() {
                        String::new()
                    } else {
                        format!(" ({unit})")
                    };
                    OptionError::bad_value(self.name, value, format!("{min} to {max}{unit}"))
                }),
            OptionKind::Combo { values, .. } => values
                .iter()
                .position(|v| v.eq_ignore_ascii_case(value.trim()))
                .map(|i| OptionValue::Number(i as u32))
                .ok_or_else(|| OptionError::bad_value(self.name, value, values.join(", "))),
            OptionKind::Check { .. } => parse_check(self.name, value).map(OptionValue::Check),
            OptionKind::Path => {
                let path = value.trim();
                let none = path.is_empty() || path == "<empty>";
                Ok(OptionValue::Path((!none).then(|| path.into())))
            }
            OptionKind::Word { .. } => Ok(OptionValue::Word(value.trim().to_string())),
        }
    }

    /// Reads a spin's value as a number (see [`OptionSpec::parse`]).
    pub fn parse_number(&self, value: &str) -> Result<u32, OptionError> {
        match self.parse(value)? {
            OptionValue::Number(n) => Ok(n),
            _ => Err(OptionError::bad_value(self.name, value, "a number")),
        }
    }

    /// The UCI listing, `option name <name> type ...`, which the native protocol shares.
    /// `name`: the option's name in the dialect (UCI may spell one its own way).
    pub fn uci_line(&self, name: &str) -> String {
        match self.kind {
            OptionKind::Spin {
                default, min, max, ..
            } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, values } => format!(
                "option name {name} type combo default {} var {}",
                values[default],
                values.join(" var ")
            ),
            OptionKind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            // UCI has no way to write an empty default but this word.
            OptionKind::Path | OptionKind::Word { default: "" } => {
                format!("option name {name} type string default <empty>")
            }
            OptionKind::Word { default } => {
                format!("option name {name} type string default {default}")
            }
        }
    }
}

/// Whether two option names are the same but for case and spaces.
pub fn same_name(a: &str, b: &str) -> bool {
    let squeeze = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    squeeze(a) == squeeze(b)
}

/// Reads an on/off value: `true`, `false`, `on` or `off`, in any case; the one
/// reader of such values (engine options, rule options, match specs). `None` for
/// anything else.
pub fn read_check(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "on" => Some(true),
        "false" | "off" => Some(false),
        _ => None,
    }
}

/// Reads the value of the check option `name` (see [`read_check`]); a refusal says
/// `true or false`, the words of the protocols' check options.
pub fn parse_check(name: &str, value: &str) -> Result<bool, OptionError> {
    read_check(value).ok_or_else(|| OptionError::bad_value(name, value, "true or false"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_names_match_without_case_or_spaces() {
        let spec = OptionSpec::spin("Move Overhead", 10, 0, 5000);
        assert!(spec.is_named("moveoverhead"));
        assert!(spec.is_named("MOVE  OVERHEAD"));
        assert!(!spec.is_named("Move"));
    }

    #[test]
    fn each_kind_reads_its_values_and_refuses_others_saying_what_it_takes() {
        let hash = OptionSpec::spin("Hash", 64, 1, 16384).in_unit("MiB");
        assert_eq!(hash.parse(" 16 "), Ok(OptionValue::Number(16)));
        assert_eq!(
            hash.parse("0").unwrap_err().to_string(),
            "Hash takes 1 to 16384 (MiB), not \"0\""
        );
        let algorithm = OptionSpec::combo("Algorithm", 2, &["brs", "paranoid", "mcts"]);
        assert_eq!(algorithm.parse("PARANOID"), Ok(OptionValue::Number(1)));
        assert!(algorithm.parse("max-n").is_err());
        let check = OptionSpec::check("Use NNUE", true);
        for (text, on) in [
            ("true", true),
            ("OFF", false),
            ("on", true),
            ("False", false),
        ] {
            assert_eq!(check.parse(text), Ok(OptionValue::Check(on)), "{text}");
        }
        assert!(check.parse("yes").is_err());
        let path = OptionSpec::path("EvalFile");
        assert_eq!(path.parse("<empty>"), Ok(OptionValue::Path(None)));
        assert_eq!(
            path.parse("a.nnue"),
            Ok(OptionValue::Path(Some("a.nnue".into())))
        );
    }

    #[test]
    fn a_bound_lowers_the_largest_value_and_the_default() {
        let hash = OptionSpec::spin("Hash", 64, 1, 16384).at_most(16);
        assert_eq!(
            hash.uci_line("Hash"),
            "option name Hash type spin default 16 min 1 max 16"
        );
        assert!(hash.parse("17").is_err());
    }
}
