#![no_main]

// The model-based test of the protocol in every phase (fuzz/src/model.rs), the first
// byte choosing the dialect.
#[path = "../src/model.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    use model::{Dialect, run};
    let Some((&first, script)) = data.split_first() else {
        return;
    };
    let dialect = [Dialect::Native, Dialect::Uci, Dialect::Ugi, Dialect::Cecp][first as usize % 4];
    run(dialect, &script[..script.len().min(64)]);
});
