//! The bench signature pinned: `ludus bench` searches fixed positions of all three games
//! to fixed depths, and its node count changes exactly when the search's behaviour does.
//! A change of the search must update this number on purpose, with `Bench: <nodes>` in
//! its commit message. (Its own process: the bench builds the endgame tables it uses.)

#[test]
fn the_bench_signature_is_pinned() {
    let mut out = Vec::new();
    ludus::bench::run(None, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let signature = text.lines().find(|l| l.starts_with("Bench: ")).unwrap();
    assert_eq!(signature, "Bench: 397183", "{text}");
}
