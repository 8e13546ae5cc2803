#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some((game, text)) = ludus_fuzz::split(data) {
        ludus_fuzz::check_native_request(game, text);
    }
});
