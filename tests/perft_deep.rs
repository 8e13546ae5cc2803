//! The deepest reference count, too slow for a debug build: `.ci/run` runs it with
//! `cargo test --release -- --ignored`.

use ludus::game::Game;
use ludus::games::senamukha::Position;
use ludus::perft::perft;

#[test]
#[ignore = "needs a release build: cargo test --release -- --ignored"]
fn senamukha_perft_depth_5_from_the_start() {
    assert_eq!(perft(&mut Position::start(), 5), 280_780_626);
}
