//! Matches past one machine: `--shard K/N` plays one part of a match's schedule, and
//! `ludus match merge` makes one result of the parts' summaries.
//!
//! The schedule is cut by opening sets (the games of one opening that rotate the seats,
//! see `schedule`): set `s` goes to shard `s mod N + 1`, so every shard plays whole
//! pairs (what the pentanomial statistics count) and the shards of a match stopped
//! early have played about as many games each. The union of the N shards is exactly
//! the unsharded match: the same games, each with the same opening and seats.

use std::fmt;
use std::path::PathBuf;

use nom::character::complete::{char, u32 as number};
use nom::combinator::all_consuming;
use nom::{IResult, Parser};
use serde::{Deserialize, Serialize};

use super::{GameSummary, MatchConfig, SummaryFile};

/// Part `index` (from 1) of `count` parts of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

/// A `--shard` that is not `K/N` with 1 <= K <= N.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError(pub String);

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a shard is K/N with 1 <= K <= N (the K-th of N parts), not {}",
            crate::game::quoted(&self.0)
        )
    }
}

impl std::error::Error for ShardError {}

fn shard(input: &str) -> IResult<&str, (u32, u32)> {
    all_consuming((number, char('/'), number))
        .map(|(k, _, n)| (k, n))
        .parse(input)
}

impl Shard {
    /// Reads `K/N`.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let refused = || ShardError(text.to_string());
        let (_, (index, count)) = shard(text.trim()).map_err(|_| refused())?;
        if index == 0 || index > count {
            return Err(refused());
        }
        Ok(Shard {
            index: index as usize,
            count: count as usize,
        })
    }

    /// Whether game `index` of a match between `engines` engines is this shard's.
    pub fn holds(&self, index: usize, engines: usize) -> bool {
        (index / engines.max(1)) % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why summaries cannot be merged.
#[derive(Debug)]
pub enum MergeError {
    NoSummaries,
    Unreadable {
        path: PathBuf,
        why: String,
    },
    /// Two summaries of different matches: what differs.
    OtherMatch {
        path: PathBuf,
        first: PathBuf,
        differs: String,
    },
    /// The same shard twice (or two unsharded runs).
    SameShard {
        shard: String,
        first: PathBuf,
        again: PathBuf,
    },
    /// One game in two summaries: the shards overlap.
    SameGame {
        game: usize,
        first: PathBuf,
        again: PathBuf,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::NoSummaries => f.write_str("merge needs the summaries of the shards"),
            MergeError::Unreadable { path, why } => {
                write!(f, "{} is no match summary: {why}", path.display())
            }
            MergeError::OtherMatch {
                path,
                first,
                differs,
            } => write!(
                f,
                "{} is from another match than {}: its {differs} differ",
                path.display(),
                first.display()
            ),
            MergeError::SameShard {
                shard,
                first,
                again,
            } => write!(
                f,
                "shard {shard} is given twice: {} and {}",
                first.display(),
                again.display()
            ),
            MergeError::SameGame { game, first, again } => write!(
                f,
                "game {} is in both {} and {}: their shards overlap",
                game + 1,
                first.display(),
                again.display()
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// Shards' summaries made one match.
pub struct Merged {
    pub game: String,
    /// The match's configuration, as the first summary gives it (the concurrency and
    /// the shard aside, every summary gives the same).
    pub config: MatchConfig,
    /// Every game of the shards, in schedule order.
    pub results: Vec<GameSummary>,
    /// The shards merged (numbers from 1), in order, and how many the match has.
    pub shards: Vec<usize>,
    pub count: usize,
}

/// What tells matches apart: the configuration less the concurrency and the shard (the
/// files a run writes to are not in it), field by field.
fn identity(game: &str, config: &MatchConfig) -> Vec<(&'static str, serde_json::Value)> {
    fn json<T: Serialize>(value: &T) -> serde_json::Value {
        serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
    }
    vec![
        ("games", json(&game)),
        ("engines", json(&config.engines)),
        ("time controls", json(&config.settings)),
        ("numbers of games", json(&config.games)),
        ("openings", json(&config.openings)),
        ("SPRT settings", json(&config.sprt)),
        ("rule options", json(&config.rules)),
    ]
}

/// Reads the summaries (path and text each) and merges them: one match, every shard
/// at most once, no game twice.
pub fn merge(summaries: &[(PathBuf, String)]) -> Result<Merged, MergeError> {
    let mut read = Vec::new();
    for (path, text) in summaries {
        let summary: SummaryFile =
            serde_json::from_str(text).map_err(|e| MergeError::Unreadable {
                path: path.clone(),
                why: e.to_string(),
            })?;
        read.push((path, summary));
    }
    let Some((first_path, first)) = read.first() else {
        return Err(MergeError::NoSummaries);
    };
    let expected = identity(&first.game, &first.config);
    let whole = Shard { index: 1, count: 1 };
    let count = first.shard.unwrap_or(whole).count;
    let mut shards: Vec<(usize, &PathBuf)> = Vec::new();
    let mut games: Vec<(usize, &PathBuf)> = Vec::new();
    let mut results = Vec::new();
    for (path, summary) in &read {
        let differs: Vec<&str> = identity(&summary.game, &summary.config)
            .into_iter()
            .zip(&expected)
            .filter(|((_, a), (_, b))| a != b)
            .map(|((name, _), _)| name)
            .collect();
        let shard = summary.shard.unwrap_or(whole);
        if !differs.is_empty() || shard.count != count {
            let mut differs = differs.join(", ");
            if shard.count != count {
                differs = format!(
                    "{differs}{}shard counts",
                    if differs.is_empty() { "" } else { ", " }
                );
            }
            return Err(MergeError::OtherMatch {
                path: (*path).clone(),
                first: (*first_path).clone(),
                differs,
            });
        }
        if let Some((_, earlier)) = shards.iter().find(|(k, _)| *k == shard.index) {
            return Err(MergeError::SameShard {
                shard: shard.to_string(),
                first: (*earlier).clone(),
                again: (*path).clone(),
            });
        }
        shards.push((shard.index, path));
        for game in &summary.games {
            game.check(summary.config.engines.len(), summary.config.openings.len())
                .map_err(|misfit| MergeError::Unreadable {
                    path: (*path).clone(),
                    why: misfit.to_string(),
                })?;
            if let Some((_, earlier)) = games.iter().find(|(g, _)| *g == game.index) {
                return Err(MergeError::SameGame {
                    game: game.index,
                    first: (*earlier).clone(),
                    again: (*path).clone(),
                });
            }
            games.push((game.index, path));
            results.push(game.clone());
        }
    }
    results.sort_by_key(|r| r.index);
    let mut numbers: Vec<usize> = shards.iter().map(|(k, _)| *k).collect();
    numbers.sort_unstable();
    Ok(Merged {
        game: first.game.clone(),
        config: MatchConfig {
            shard: None,
            ..first.config.clone()
        },
        results,
        shards: numbers,
        count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_is_k_of_n() {
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(Shard::parse(" 1/1 "), Ok(Shard { index: 1, count: 1 }));
        for bad in [
            "0/3", "4/3", "3", "1/0", "a/b", "1/3/4", "-1/3", "1 / 3", "",
        ] {
            let e = Shard::parse(bad).unwrap_err();
            assert!(e.to_string().contains("1 <= K <= N"), "{bad}: {e}");
        }
    }

    #[test]
    fn shards_split_the_schedule_by_opening_sets() {
        for engines in [2, 4] {
            for count in 1..=5 {
                let mut owners = Vec::new();
                for game in 0..100 {
                    let holders: Vec<usize> = (1..=count)
                        .filter(|&index| Shard { index, count }.holds(game, engines))
                        .collect();
                    assert_eq!(
                        holders.len(),
                        1,
                        "game {game} of {engines} engines, {count} shards"
                    );
                    owners.push(holders[0]);
                }
                // The games of one set stay together.
                for set in owners.chunks(engines) {
                    assert!(set.iter().all(|&o| o == set[0]), "{set:?}");
                }
            }
        }
    }
}
