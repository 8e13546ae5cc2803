//! The options every game has (Hash, Threads, Move Overhead, MultiPV, Ponder,
//! UCI_ShowWDL and the strength levels'), each
//! declared once here with what setting it does to the engine; each game declares its
//! own engine and rule options beside its rules and search. Front ends print the
//! engine's list in their own form and hand every setting to [`super::Engine`].

use std::time::Duration;

use super::error::EngineError;
use super::{Bounds, Engine};
use crate::options::{OptionSpec, OptionValue};
use crate::search::skill::{ELO_MAX, ELO_MIN, MAX_LEVEL};

/// Transposition table size at start, in MiB.
pub const DEFAULT_HASH_MIB: usize = 64;
pub const MAX_HASH_MIB: usize = 16_384;
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;
/// The most lines `MultiPV` asks for.
pub const MAX_MULTI_PV: usize = 64;

pub const HASH: OptionSpec =
    OptionSpec::spin("Hash", DEFAULT_HASH_MIB as u32, 1, MAX_HASH_MIB as u32).in_unit("MiB");
/// Threads' own largest value; a session's bound lowers it (see [`Bounds::threads`]).
pub const THREADS: OptionSpec =
    OptionSpec::spin("Threads", 1, 1, crate::search::MAX_THREADS as u32);
pub const MOVE_OVERHEAD: OptionSpec = OptionSpec::spin(
    "Move Overhead",
    DEFAULT_MOVE_OVERHEAD_MS as u32,
    0,
    MAX_MOVE_OVERHEAD_MS as u32,
)
.in_unit("ms");
pub const MULTI_PV: OptionSpec = OptionSpec::spin("MultiPV", 1, 1, MAX_MULTI_PV as u32);
pub const PONDER: OptionSpec = OptionSpec::check("Ponder", false);
/// Plays at the strength `UCI_Elo` names (on ludus's scale, see [`crate::search::skill`]).
pub const LIMIT_STRENGTH: OptionSpec = OptionSpec::check("UCI_LimitStrength", false);
pub const ELO: OptionSpec = OptionSpec::spin("UCI_Elo", ELO_MIN, ELO_MIN, ELO_MAX);
/// The level when `UCI_LimitStrength` is off: 0 (weakest) to 20 (full strength).
pub const SKILL_LEVEL: OptionSpec = OptionSpec::spin("Skill Level", MAX_LEVEL, 0, MAX_LEVEL);
/// Where a weakened search's random choices come from: with the same seed, a game
/// repeats; 0 draws a new seed for every search.
pub const SKILL_SEED: OptionSpec = OptionSpec::spin("Skill Seed", 0, 0, i32::MAX as u32);
/// Every `info` line with a score also gives the chances it means (`wdl W D L`).
pub const SHOW_WDL: OptionSpec = OptionSpec::check("UCI_ShowWDL", false);

/// One of the options every game has, with its session bound and its action.
pub(super) struct Common {
    pub spec: OptionSpec,
    /// The largest value a session with these bounds lists (`None`: the option's own).
    bound: fn(&Bounds) -> Option<u32>,
    /// Whether a value above the bound is refused as out of the option's range; else
    /// the action refuses it, as above the session's limit (Hash, whose own range the
    /// session's bound does not change for the client).
    bound_is_range: bool,
    /// What setting a value (read by the spec, within the bound) does.
    pub apply: fn(&mut Engine, OptionValue) -> Result<(), EngineError>,
}

impl Common {
    /// The option as a session with `bounds` lists it.
    pub fn listed(&self, bounds: &Bounds) -> OptionSpec {
        match (self.bound)(bounds) {
            Some(max) => self.spec.at_most(max),
            None => self.spec,
        }
    }

    /// Reads a value for a session with `bounds`.
    pub fn parse(&self, value: &str, bounds: &Bounds) -> Result<OptionValue, EngineError> {
        let spec = if self.bound_is_range {
            self.listed(bounds)
        } else {
            self.spec
        };
        Ok(spec.parse(value)?)
    }
}

fn unbounded(_: &Bounds) -> Option<u32> {
    None
}

/// The number a spin's value holds (the spec read it).
fn number(value: &OptionValue) -> u32 {
    match value {
        OptionValue::Number(n) => *n,
        _ => unreachable!("a spin's value is a number"),
    }
}

/// The options every game has, in the order front ends list them.
pub(super) const COMMON: [Common; 10] = [
    Common {
        spec: HASH,
        bound: |bounds| Some(bounds.hash_mib as u32),
        // A Hash above the session's limit is refused as such (Engine::set_hash).
        bound_is_range: false,
        apply: |engine, value| engine.set_hash(number(&value) as usize),
    },
    Common {
        spec: THREADS,
        bound: |bounds| Some(bounds.threads as u32),
        bound_is_range: true,
        apply: |engine, value| {
            let threads = number(&value) as usize;
            engine.settings.threads = threads;
            engine.game().set_threads(threads);
            Ok(())
        },
    },
    Common {
        spec: MOVE_OVERHEAD,
        bound: unbounded,
        bound_is_range: true,
        apply: |engine, value| {
            engine.settings.move_overhead = Duration::from_millis(u64::from(number(&value)));
            Ok(())
        },
    },
    Common {
        spec: MULTI_PV,
        bound: unbounded,
        bound_is_range: true,
        apply: |engine, value| {
            engine.settings.multi_pv = number(&value) as usize;
            Ok(())
        },
    },
    Common {
        spec: PONDER,
        bound: unbounded,
        bound_is_range: true,
        apply: |engine, value| {
            engine.settings.ponder = value == OptionValue::Check(true);
            Ok(())
        },
    },
    Common {
        spec: SHOW_WDL,
        bound: unbounded,
        bound_is_range: true,
        apply: |engine, value| {
            engine.settings.show_wdl = value == OptionValue::Check(true);
            Ok(())
        },
    },
    Common {
        spec: LIMIT_STRENGTH,
        bound: unbounded,
        bound_is_range: true,
        apply: |engine, value| {
            engine.settings.limit_strength = value == OptionValue::Check(true);
            Ok(())
        },
    },
    // Kept while UCI_LimitStrength is off, and used when it is switched on.
    Common {
        spec: ELO,
        bound: unbounded,
        bound_is_range: true,
        apply: |engine, value| {
            engine.settings.elo = number(&value);
            Ok(())
        },
    },
    Common {
        spec: SKILL_LEVEL,
        bound: unbounded,
        bound_is_range: true,
        apply: |engine, value| {
            engine.settings.skill_level = number(&value);
            Ok(())
        },
    },
    Common {
        spec: SKILL_SEED,
        bound: unbounded,
        bound_is_range: true,
        apply: |engine, value| {
            engine.settings.skill_seed = number(&value);
            Ok(())
        },
    },
];

/// The common option `name` names, if any.
pub(super) fn common(name: &str) -> Option<&'static Common> {
    COMMON.iter().find(|c| c.spec.is_named(name))
}

/// Reads a `Hash` value (MiB), as the command line takes it too.
pub fn parse_hash(value: &str) -> Result<usize, EngineError> {
    Ok(HASH.parse_number(value)? as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_out_of_range_are_refused_with_what_is_taken() {
        assert_eq!(parse_hash("16").unwrap(), 16);
        assert_eq!(
            parse_hash("0").unwrap_err().to_string(),
            "Hash takes 1 to 16384 (MiB), not \"0\""
        );
        assert!(MULTI_PV.parse("3").is_ok());
        assert!(MULTI_PV.parse("65").is_err());
        assert!(PONDER.parse("yes").is_err());
        assert_eq!(PONDER.parse("TRUE"), Ok(OptionValue::Check(true)));
    }

    #[test]
    fn a_session_bound_lowers_threads() {
        let bounds = Bounds {
            threads: 2,
            ..Bounds::default()
        };
        let threads = common("threads").unwrap().listed(&bounds);
        assert!(threads.parse("2").is_ok());
        assert_eq!(
            threads.parse("3").unwrap_err().to_string(),
            "Threads takes 1 to 2, not \"3\""
        );
    }
}
