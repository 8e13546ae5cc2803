//! `ludus analysis` through pipes (protocol-spec/analysis.md): JSON queries in, one
//! JSON response a turn out, for the three games; turns in parallel, terminate, and
//! every kind of bad input answered while the next query is served.

mod common;

use std::time::{Duration, Instant};

use common::Process;
use serde_json::Value;

fn analysis(threads: &str) -> Process {
    Process::start_with(&["analysis", "--threads", threads])
}

/// The schema of protocol-spec/analysis.schema.json, pointed at one of its parts.
fn validator(part: &str) -> jsonschema::Validator {
    let path = format!(
        "{}/protocol-spec/analysis.schema.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    schema["$ref"] = Value::String(format!("#/$defs/{part}"));
    jsonschema::validator_for(&schema).unwrap()
}

/// Every line of output, read as JSON and checked against the schema's `output`.
fn json(line: &str) -> Value {
    static OUTPUT: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
    let value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    let output = OUTPUT.get_or_init(|| validator("output"));
    let errors: Vec<String> = output.iter_errors(&value).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{line}: {errors:?}");
    value
}

/// Sends a query or action that the schema's `input` takes.
fn send(engine: &mut Process, line: &str) {
    static INPUT: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
    let value: Value = serde_json::from_str(line).unwrap();
    let input = INPUT.get_or_init(|| validator("input"));
    let errors: Vec<String> = input.iter_errors(&value).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{line}: {errors:?}");
    engine.send(line);
}

/// The schema tells good input from bad: a sample of each.
#[test]
fn the_schema_takes_the_queries_of_the_spec_and_refuses_bad_ones() {
    let input = validator("input");
    for good in [
        r#"{"id": "a", "game": "mangala", "moves": ["A"], "maxNodes": 20000}"#,
        r#"{"id": "t", "action": "terminate", "terminateId": "a"}"#,
        r#"{"id": "v", "action": "query_version"}"#,
    ] {
        assert!(
            input.is_valid(&serde_json::from_str(good).unwrap()),
            "{good}"
        );
    }
    for bad in [
        r#"{"moves": []}"#,
        r#"{"id": "q", "maxDepth": 99}"#,
        r#"{"id": "q", "allowMoves": ["a"], "avoidMoves": ["b"]}"#,
        r#"{"id": "t", "action": "terminate"}"#,
        r#"{"id": "q", "game": "go"}"#,
    ] {
        assert!(
            !input.is_valid(&serde_json::from_str(bad).unwrap()),
            "{bad}"
        );
    }
}

/// The next `n` lines, as JSON.
fn responses(engine: &mut Process, n: usize) -> Vec<Value> {
    (0..n).map(|_| json(&engine.line())).collect()
}

/// Move infos ordered best first, numbered from 0, each with a move and its line.
fn assert_ordered(response: &Value, lines: usize) {
    let infos = response["moveInfos"].as_array().unwrap();
    assert_eq!(infos.len(), lines, "{response}");
    for (k, info) in infos.iter().enumerate() {
        assert_eq!(info["order"], k, "{response}");
        assert_eq!(info["pv"][0], info["move"], "{response}");
    }
    let scores: Vec<i64> = infos.iter().filter_map(|i| i["scoreCp"].as_i64()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{response}");
}

#[test]
fn two_queries_at_once_get_a_response_per_turn() {
    let mut engine = analysis("2");
    send(
        &mut engine,
        r#"{"id": "game", "moves": ["e4e5", "e8e7", "c4c5"], "analyzeTurns": [0, 1, 3], "multiPV": 3, "includeWDL": true, "maxDepth": 5}"#,
    );
    send(
        &mut engine,
        r#"{"id": "one", "game": "mangala", "moves": ["A"], "maxNodes": 20000}"#,
    );
    let got = responses(&mut engine, 4);
    let mut turns: Vec<u64> = got
        .iter()
        .filter(|r| r["id"] == "game")
        .map(|r| r["turnNumber"].as_u64().unwrap())
        .collect();
    turns.sort_unstable();
    assert_eq!(turns, vec![0, 1, 3]);
    for response in &got {
        assert_eq!(response["isDuringSearch"], false, "{response}");
        if response["id"] == "game" {
            assert_ordered(response, 3);
            let wdl = response["rootInfo"]["wdl"].as_array().unwrap();
            assert_eq!(wdl.iter().map(|v| v.as_u64().unwrap()).sum::<u64>(), 1000);
            let mover = if response["turnNumber"] == 1 {
                "black"
            } else {
                "white"
            };
            let mover = if response["turnNumber"] == 3 {
                "black"
            } else {
                mover
            };
            assert_eq!(response["rootInfo"]["toMove"], mover, "{response}");
        } else {
            assert_eq!(response["turnNumber"], 1);
            assert_eq!(response["rootInfo"]["toMove"], "north", "{response}");
            assert!(response["moveInfos"][0]["wdl"].is_null(), "{response}");
        }
    }
}

#[test]
fn mentula_gives_every_players_score_and_root_moves_can_be_chosen() {
    let mut engine = analysis("1");
    send(
        &mut engine,
        r#"{"id": "m", "game": "mentula", "maxNodes": 3000, "multiPV": 2}"#,
    );
    let response = json(&engine.line());
    let infos = response["moveInfos"].as_array().unwrap();
    assert_eq!(infos.len(), 2, "{response}");
    assert_eq!(
        infos[0]["scores"].as_array().unwrap().len(),
        4,
        "{response}"
    );
    // allowMoves: only those; avoidMoves: never those.
    send(
        &mut engine,
        r#"{"id": "allow", "maxDepth": 3, "multiPV": 4, "allowMoves": ["e4e5", "c4c5"]}"#,
    );
    let allowed = json(&engine.line());
    let moves: Vec<&str> = allowed["moveInfos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves.len(), 2, "{allowed}");
    assert!(
        moves.iter().all(|m| ["e4e5", "c4c5"].contains(m)),
        "{allowed}"
    );
    let best = moves[0].to_string();
    send(
        &mut engine,
        &format!(r#"{{"id": "avoid", "maxDepth": 3, "multiPV": 5, "avoidMoves": ["{best}"]}}"#),
    );
    let avoided = json(&engine.line());
    let infos = avoided["moveInfos"].as_array().unwrap();
    assert_eq!(infos.len(), 5, "{avoided}");
    assert!(
        infos.iter().all(|i| i["move"] != best.as_str()),
        "{avoided}"
    );
    // A finished game has no results.
    send(
        &mut engine,
        r#"{"id": "over", "game": "mangala", "initialPosition": "0,0,0,0,0,0/0,0,0,0,0,0 S 40 32"}"#,
    );
    let over = json(&engine.line());
    assert_eq!(over["noResults"], true, "{over}");
}

#[test]
fn a_terminate_stops_a_long_query_within_a_second() {
    let mut engine = analysis("1");
    send(
        &mut engine,
        r#"{"id": "long", "moves": ["e4e5"], "analyzeTurns": [0, 1], "maxTime": 60000}"#,
    );
    send(
        &mut engine,
        r#"{"id": "next", "game": "mangala", "maxDepth": 4}"#,
    );
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    send(
        &mut engine,
        r#"{"id": "stop", "action": "terminate", "terminateId": "long"}"#,
    );
    let got = responses(&mut engine, 4);
    assert!(
        sent.elapsed() < Duration::from_secs(1),
        "{:?}",
        sent.elapsed()
    );
    assert_eq!(got[0]["action"], "terminate", "{got:?}");
    // The running turn gives what it has; the waiting one answers with no results;
    // the next query runs.
    assert_eq!(got[1]["id"], "long");
    assert!(
        !got[1]["moveInfos"].as_array().unwrap().is_empty(),
        "{got:?}"
    );
    assert_eq!(
        (got[2]["id"].as_str(), got[2]["noResults"].as_bool()),
        (Some("long"), Some(true))
    );
    assert_eq!(got[3]["id"], "next");
}

#[test]
fn a_terminate_with_turn_numbers_stops_only_those_turns() {
    let mut engine = analysis("1");
    send(
        &mut engine,
        r#"{"id": "q", "moves": ["e4e5", "e8e7"], "analyzeTurns": [0, 1, 2], "maxTime": 60000}"#,
    );
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    send(
        &mut engine,
        r#"{"id": "t1", "action": "terminate", "terminateId": "q", "turnNumbers": [0, 2]}"#,
    );
    let got = responses(&mut engine, 2);
    assert_eq!(got[0]["turnNumbers"], serde_json::json!([0, 2]), "{got:?}");
    assert_eq!(got[1]["turnNumber"], 0, "{got:?}");
    assert!(
        !got[1]["moveInfos"].as_array().unwrap().is_empty(),
        "{got:?}"
    );
    // Turn 1 was not terminated: it searches until it is.
    std::thread::sleep(Duration::from_millis(300));
    send(
        &mut engine,
        r#"{"id": "t2", "action": "terminate", "terminateId": "q", "turnNumbers": [1]}"#,
    );
    let got = responses(&mut engine, 3);
    assert_eq!(got[0]["action"], "terminate", "{got:?}");
    assert_eq!(got[1]["turnNumber"], 1, "{got:?}");
    // Turn 1 ran (it has lines) and answered only after its own terminate (after the
    // reply to t2): the first terminate left it searching.
    assert!(got[1]["noResults"].is_null(), "turn 1 ran: {got:?}");
    assert!(
        !got[1]["moveInfos"].as_array().unwrap().is_empty(),
        "{got:?}"
    );
    assert_eq!(
        (got[2]["turnNumber"].as_u64(), got[2]["noResults"].as_bool()),
        (Some(2), Some(true)),
        "turn 2 was terminated while it waited: {got:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn bad_input_is_answered_and_the_next_query_served() {
    let mut engine = analysis("1");
    for (line, expect) in [
        ("not json", r#""line":1"#),
        (r#"{"moves": []}"#, r#""field":"id""#),
        (
            r#"{"id": "q", "moves": ["e4e5", "zz"]}"#,
            r#""field":"moves[1]""#,
        ),
        (
            r#"{"id": "q", "analyzeTurns": [3]}"#,
            r#""field":"analyzeTurns[0]""#,
        ),
        (r#"{"id": "q", "maxDepth": 99}"#, "from 1 to 64"),
        (r#"{"id": "q", "game": "go"}"#, r#""field":"game""#),
        (
            r#"{"id": "q", "overrideSettings": {"Nonsense": 1}}"#,
            r#""field":"overrideSettings.Nonsense""#,
        ),
        (
            r#"{"id": "q", "game": "mentula", "overrideSettings": {"Algorithm": "dice"}}"#,
            r#""field":"overrideSettings.Algorithm""#,
        ),
        (
            r#"{"id": "q", "overrideSettings": {"Hash": 999999}}"#,
            "1 to 16384",
        ),
        (
            r#"{"id": "q", "allowMoves": ["e4e5"], "avoidMoves": ["c4c5"]}"#,
            r#""field":"avoidMoves""#,
        ),
        (r#"{"id": "q", "action": "dance"}"#, r#""field":"action""#),
    ] {
        engine.send(line);
        let reply = engine.line();
        json(&reply);
        assert!(reply.contains(expect), "{line}: {reply}");
        assert!(reply.contains("\"error\""), "{line}: {reply}");
    }
    engine.send(r#"{"id": "fine", "game": "mangala", "maxDepth": 3, "colour": "red"}"#);
    let warning = json(&engine.line());
    assert_eq!(
        (warning["field"].as_str(), warning["id"].as_str()),
        (Some("colour"), Some("fine"))
    );
    assert!(warning["warning"].is_string());
    let response = json(&engine.line());
    assert_eq!(response["id"], "fine");
    assert!(!response["moveInfos"].as_array().unwrap().is_empty());
}
