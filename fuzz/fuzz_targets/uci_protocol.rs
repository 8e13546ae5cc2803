#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        ludus_fuzz::check_uci_lines("uci", text);
    }
});
