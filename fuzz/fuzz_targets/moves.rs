#![no_main]

// The first byte chooses the position, the second the game; the rest is the move.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some((&seed, rest)) = data.split_first()
        && let Some((game, text)) = ludus_fuzz::split(rest)
    {
        ludus_fuzz::check_move(game, seed, text);
    }
});
