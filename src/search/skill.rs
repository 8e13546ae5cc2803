//! Strength levels (`Skill Level`, `UCI_LimitStrength` with `UCI_Elo`): a search that
//! plays like a weaker player, with plausible moves and errors whose size grows as the
//! level falls.
//!
//! Stockfish's way, on ludus's searches: a weakened search looks at a few best lines
//! ([`SKILL_LINES`], MultiPV) within a node budget, then picks among the lines: each
//! line's score is pushed up by a share of its distance from the best and by a random
//! amount of at most one unit (a pawn, a counter), and the highest wins. Both follow
//! one number, the *setting* (0 to 20): the budget grows geometrically with it and the
//! share shrinks. At setting 19 a line worse than the best by more than about two units
//! is never picked, so a move that gives up material at once is not played; at 0 lines
//! within several units are near equals. The random draws come from a seed and the
//! position, so a game repeats with the seed.
//!
//! A level is not its setting: strength does not grow evenly with the setting (the
//! lowest settings are all about as weak), so each game's [`LevelScale`] gives every
//! level the setting its ladder measured to be a twentieth of the way from level 0's
//! Elo to full strength's: the levels are about equally spaced in Elo.

use super::{Info, Limits, MATE, Score};
use crate::game::splitmix64;

/// Levels 0 (weakest) to 20 (full strength, no weakening).
pub const MAX_LEVEL: u32 = 20;
/// The lines a weakened search looks at.
pub const SKILL_LINES: usize = 4;
/// The lowest `UCI_Elo`: every game's level 0, the scale's anchor (a player who has
/// just learnt the rules).
pub const ELO_MIN: u32 = 500;
/// The highest `UCI_Elo` taken; above a game's full strength it plays at full strength.
pub const ELO_MAX: u32 = 3000;

/// One game's levels: the setting each plays at and the Elo each has on ludus's scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelScale {
    /// Nodes a move at setting 0 and at setting 19 (geometric between). Between 19
    /// and 20 (full strength) a setting plays that share of its moves at full
    /// strength, the others at 19.
    pub nodes: (u64, u64),
    /// Each level's setting, levels 0 to 20: rising, `settings[20]` is 20. Identity
    /// until a ladder has measured the game (`scripts/ladder table`).
    pub settings: [f64; 21],
    /// Each level's Elo on ludus's scale for this game, levels 0 to 20 (20: full
    /// strength at the control the ladder was measured at). Rising; `elo[0]` is
    /// [`ELO_MIN`].
    pub elo: [u32; 21],
    /// The game's unit in centi-units of its scores (a pawn, a counter): the most the
    /// random part of the pick adds.
    pub unit: i32,
}

/// Settings equal to the levels: a scale no ladder has spaced yet.
pub const UNSPACED: [f64; 21] = [
    0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0,
    17.0, 18.0, 19.0, 20.0,
];

impl LevelScale {
    /// The setting of a level (interpolated between levels).
    pub fn setting_of(&self, level: f64) -> f64 {
        let level = level.clamp(0.0, f64::from(MAX_LEVEL));
        let below = (level.floor() as usize).min(MAX_LEVEL as usize - 1);
        let share = level - below as f64;
        let (low, high) = (self.settings[below], self.settings[below + 1]);
        low + share * (high - low)
    }

    /// The node budget of a setting (none at 20, full strength; 19's above 19).
    pub fn nodes_at(&self, setting: f64) -> Option<u64> {
        if setting >= f64::from(MAX_LEVEL) {
            return None;
        }
        let (low, high) = (self.nodes.0 as f64, self.nodes.1 as f64);
        let share = (setting / f64::from(MAX_LEVEL - 1)).clamp(0.0, 1.0);
        Some((low * (high / low).powf(share)).round() as u64)
    }

    /// The node budget of a level (none at 20).
    pub fn level_nodes(&self, level: f64) -> Option<u64> {
        self.nodes_at(self.setting_of(level))
    }

    /// The level of an Elo on this game's ladder, interpolated between levels: 20
    /// (full strength) at or above the top.
    pub fn level_of_elo(&self, elo: u32) -> f64 {
        if elo <= self.elo[0] {
            return 0.0;
        }
        for level in 0..MAX_LEVEL as usize {
            let (low, high) = (self.elo[level], self.elo[level + 1]);
            if elo < high {
                return level as f64 + f64::from(elo - low) / f64::from((high - low).max(1));
            }
        }
        f64::from(MAX_LEVEL)
    }

    /// The Elo of full strength, the top of this game's ladder.
    pub fn full_strength_elo(&self) -> u32 {
        self.elo[MAX_LEVEL as usize]
    }
}

/// A weakened search's level and seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// 0 to 20, fractional when it comes from an Elo.
    pub level: f64,
    /// With the position, where the pick's random draws come from.
    pub seed: u64,
}

impl Skill {
    /// Whether the level weakens the search at all (below 20).
    pub fn weakens(&self) -> bool {
        self.level < f64::from(MAX_LEVEL)
    }

    /// Whether the search of the position `key` is weakened: below 20, unless the
    /// level's setting is above 19 and this move is one of the share it plays at full
    /// strength (drawn from the seed and the position, as the pick is).
    pub fn weakens_at(&self, scale: &LevelScale, key: u64) -> bool {
        let above = scale.setting_of(self.level) - f64::from(MAX_LEVEL - 1);
        if !self.weakens() || above >= 1.0 {
            return false;
        }
        // A draw of its own (the pick's first draw comes from the same seed and key).
        let draw = splitmix64(self.seed ^ key ^ 0x5eed_f011).1;
        above <= 0.0 || (draw % 1_000_000) as f64 >= above * 1e6
    }

    /// The limits of a weakened search: at most the level's nodes (unless it is to run
    /// until `stop`: analysis keeps its lines, the pick comes at the end) and at least
    /// [`SKILL_LINES`] lines.
    pub fn weaken(&self, scale: &LevelScale, limits: &mut Limits) {
        if !self.weakens() {
            return;
        }
        if !limits.infinite
            && let Some(budget) = scale.level_nodes(self.level)
        {
            limits.nodes = Some(limits.nodes.map_or(budget, |n| n.min(budget)));
        }
        limits.multi_pv = limits.multi_pv.max(SKILL_LINES);
    }

    /// The line to play among `lines` (best first, as the search reported them), the
    /// scores from `mover`'s view; `key` names the position (the draws depend on it
    /// and the seed).
    pub fn pick<'a>(
        &self,
        lines: &'a [Info],
        mover: usize,
        scale: &LevelScale,
        key: u64,
    ) -> Option<&'a Info> {
        let value = |info: &Info| -> i64 {
            let score = info
                .scores
                .get(mover)
                .or(info.scores.first())
                .copied()
                .unwrap_or(Score::Centi(0));
            match score {
                Score::Centi(v) => i64::from(v),
                Score::Mate(n) if n > 0 => i64::from(MATE - n),
                Score::Mate(n) => i64::from(-MATE - n),
            }
        };
        let lines: Vec<&Info> = lines.iter().filter(|l| !l.pv.is_empty()).collect();
        let top = value(lines.first()?);
        let last = value(lines.last()?);
        let delta = (top - last).clamp(0, i64::from(scale.unit.max(1)));
        let setting = scale.setting_of(self.level).min(f64::from(MAX_LEVEL - 1));
        let weakness = (120.0 - 2.0 * setting).round().max(1.0) as i64;
        let mut state = splitmix64(self.seed ^ key).0;
        let mut best: Option<&Info> = None;
        let mut best_value = i64::MIN;
        for line in lines {
            let (next, draw) = splitmix64(state);
            state = next;
            let s = value(line);
            // Stockfish's formula: a share of the distance from the best, and a random
            // part of at most `delta` (both scaled by the weakness, out of 128).
            let push = (weakness * (top - s) + delta * (draw % weakness as u64) as i64) / 128;
            if s + push >= best_value {
                best_value = s + push;
                best = Some(line);
            }
        }
        best
    }
}

/// A key for a position's text (FNV-1a), for [`Skill::pick`].
pub fn position_key(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCALE: LevelScale = LevelScale {
        nodes: (50, 200_000),
        settings: UNSPACED,
        elo: [
            500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900,
            2000, 2100, 2200, 2300, 2400, 2500,
        ],
        unit: 100,
    };

    fn line(mv: &str, cp: i32) -> Info {
        let mut info = Info::before_search(vec![Score::Centi(cp)], vec![mv.to_string()]);
        info.depth = 5;
        info
    }

    #[test]
    fn node_budgets_grow_with_the_level_and_vanish_at_full_strength() {
        assert_eq!(SCALE.nodes_at(0.0), Some(50));
        assert_eq!(SCALE.nodes_at(19.0), Some(200_000));
        let budgets: Vec<u64> = (0..20)
            .map(|l| SCALE.nodes_at(f64::from(l)).unwrap())
            .collect();
        assert!(budgets.windows(2).all(|w| w[0] < w[1]), "{budgets:?}");
        assert_eq!(SCALE.nodes_at(20.0), None);
    }

    /// A spaced scale plays each level at its setting: its budget and its share.
    #[test]
    fn levels_play_at_their_settings() {
        let mut settings = UNSPACED;
        settings[1] = 4.0;
        settings[2] = 6.0;
        let spaced = LevelScale { settings, ..SCALE };
        assert_eq!(spaced.setting_of(1.0), 4.0);
        assert_eq!(spaced.setting_of(1.5), 5.0);
        assert_eq!(spaced.level_nodes(1.0), SCALE.nodes_at(4.0));
        assert_eq!(spaced.level_nodes(20.0), None);
        // Between 19 and 20 a setting plays some moves at full strength, the others
        // at 19: more of them the nearer 20.
        assert_eq!(SCALE.nodes_at(19.5), SCALE.nodes_at(19.0));
        settings[3] = 19.25;
        settings[4] = 19.75;
        let spaced = LevelScale { settings, ..SCALE };
        let full = |level: f64| {
            (0..2000u64)
                .filter(|&key| !Skill { level, seed: 5 }.weakens_at(&spaced, key))
                .count()
        };
        let (quarter, three_quarters) = (full(3.0), full(4.0));
        assert!((400..600).contains(&quarter), "{quarter}");
        assert!((1400..1600).contains(&three_quarters), "{three_quarters}");
        assert_eq!(full(2.0), 0);
        assert_eq!(full(20.0), 2000);
        // The pick follows the setting too: level 1 of the spaced scale picks as
        // level 4 of the unspaced one.
        let lines = vec![line("a", 40), line("b", 0), line("c", -60), line("d", -300)];
        for seed in 0..100 {
            let at = |scale: &LevelScale, level: f64| {
                Skill { level, seed }.pick(&lines, 0, scale, 3).unwrap().pv[0].clone()
            };
            assert_eq!(at(&spaced, 1.0), at(&SCALE, 4.0));
        }
    }

    #[test]
    fn an_elo_maps_onto_the_ladder() {
        assert_eq!(SCALE.level_of_elo(500), 0.0);
        assert_eq!(SCALE.level_of_elo(1000), 5.0);
        assert!((SCALE.level_of_elo(1050) - 5.5).abs() < 1e-9);
        assert_eq!(SCALE.level_of_elo(2500), 20.0);
        assert_eq!(SCALE.level_of_elo(2900), 20.0);
    }

    #[test]
    fn high_levels_never_give_up_material_and_low_levels_err() {
        let lines = vec![
            line("good", 50),
            line("fair", 20),
            line("hangs", -400),
            line("worse", -900),
        ];
        let picks = |level: f64| -> Vec<String> {
            (0..500)
                .map(|seed| {
                    let skill = Skill { level, seed };
                    skill.pick(&lines, 0, &SCALE, 7).unwrap().pv[0].clone()
                })
                .collect()
        };
        for level in [15.0, 19.0] {
            let p = picks(level);
            assert!(
                p.iter().all(|m| m == "good" || m == "fair"),
                "level {level}"
            );
            assert!(p.iter().any(|m| m == "good"));
        }
        let low = picks(0.0);
        assert!(low.iter().any(|m| m == "hangs"), "level 0 never errs");
        let good = |p: &[String]| p.iter().filter(|m| *m == "good").count();
        assert!(good(&low) < good(&picks(19.0)));
    }

    #[test]
    fn the_same_seed_and_position_pick_the_same_line() {
        let lines = vec![line("a", 10), line("b", 0), line("c", -5)];
        let skill = Skill {
            level: 2.0,
            seed: 99,
        };
        let first = skill.pick(&lines, 0, &SCALE, 1234).unwrap().pv[0].clone();
        for _ in 0..10 {
            assert_eq!(skill.pick(&lines, 0, &SCALE, 1234).unwrap().pv[0], first);
        }
    }

    #[test]
    fn a_mate_is_never_passed_over() {
        let mut mate = line("mates", 0);
        mate.scores = vec![Score::Mate(1)];
        let lines = vec![mate, line("b", 300), line("c", 250)];
        for seed in 0..200 {
            let skill = Skill { level: 0.0, seed };
            assert_eq!(skill.pick(&lines, 0, &SCALE, 5).unwrap().pv[0], "mates");
        }
    }

    #[test]
    fn weakening_caps_nodes_but_not_analysis() {
        let skill = Skill {
            level: 0.0,
            seed: 1,
        };
        let mut limits = Limits::default();
        skill.weaken(&SCALE, &mut limits);
        assert_eq!((limits.nodes, limits.multi_pv), (Some(50), SKILL_LINES));
        let mut analysis = Limits {
            infinite: true,
            ..Limits::default()
        };
        skill.weaken(&SCALE, &mut analysis);
        assert_eq!(analysis.nodes, None);
        let full = Skill {
            level: 20.0,
            seed: 1,
        };
        let mut untouched = Limits::default();
        full.weaken(&SCALE, &mut untouched);
        assert_eq!((untouched.nodes, untouched.multi_pv), (None, 0));
    }
}
