//! The board of `ludus serve` in a real browser: Debian's Chromium, driven through
//! chromedriver (WebDriver) as a person would use it: clicks on the board, the seat
//! choices, the record and position boxes, the keys.
//!
//! Ignored by default, as they need `chromium` and `chromium-driver` (Debian's
//! packages); `.ci/run` installs them and runs
//! `cargo test --release --test browser -- --ignored --test-threads 1`.
//! With `LUDUS_SCREENSHOTS=1` the tests also save the boards to `adapters/web/`.

mod common;

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::Server;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use ludus::game::Game;
use ludus::games::{mangala, mentula, senamukha};
use serde_json::{Value, json};

/// How long a test waits for the page to show what it expects.
const PATIENCE: Duration = Duration::from_secs(20);

struct Browser {
    client: Client,
    driver: Child,
    profile: std::path::PathBuf,
    server: Server,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Browser {
    /// A fresh `ludus serve`, a headless Chromium with a fresh profile, and the page of
    /// `game` open in it.
    async fn open(game: &str) -> Browser {
        Browser::open_with(game, &[]).await
    }

    /// [`Browser::open`] with a server started with `args`.
    async fn open_with(game: &str, args: &[&str]) -> Browser {
        Browser::open_in(game, args, &[]).await
    }

    /// [`Browser::open_with`], Chromium started with `chromium_args` too
    /// (`--force-dark-mode`: the system asks for a dark theme).
    async fn open_in(game: &str, args: &[&str], chromium_args: &[&str]) -> Browser {
        let server = Server::start(args);
        let port = free_port();
        // A process group of its own: Chromium runs under chromedriver, and a test that
        // fails ends them all (see Drop).
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver (Debian's chromium-driver) is installed");
        let profile =
            std::env::temp_dir().join(format!("ludus-chromium-{}-{port}", std::process::id()));
        let mut args = vec![
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--no-first-run",
            "--window-size=1200,1000",
        ];
        let profile_arg = format!("--user-data-dir={}", profile.display());
        args.push(&profile_arg);
        args.extend_from_slice(chromium_args);
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({ "binary": "/usr/bin/chromium", "args": args }),
        );
        let webdriver = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + PATIENCE;
        let client = loop {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            match ClientBuilder::new(connector)
                .capabilities(capabilities.clone())
                .connect(&webdriver)
                .await
            {
                Ok(client) => break client,
                Err(e) if Instant::now() < deadline => {
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("no WebDriver session: {e}"),
            }
        };
        let browser = Browser {
            client,
            driver,
            profile,
            server,
        };
        browser
            .client
            .goto(&format!("http://{}/?game={game}", browser.server.address))
            .await
            .unwrap();
        browser
            .wait_for(
                &format!("document.querySelector('#board svg.{game}') && document.body.dataset.state === 'idle'"),
                "the board",
            )
            .await;
        browser
    }

    async fn eval(&self, expression: &str) -> Value {
        self.client
            .execute(&format!("return {expression};"), vec![])
            .await
            .unwrap()
    }

    /// Waits until `condition` (JavaScript) holds; `what` names it in the failure.
    async fn wait_for(&self, condition: &str, what: &str) -> Duration {
        let started = Instant::now();
        loop {
            if self.eval(&format!("!!({condition})")).await == Value::Bool(true) {
                return started.elapsed();
            }
            if started.elapsed() > PATIENCE {
                let message = self.message().await;
                panic!("waited {PATIENCE:?} for {what} ({condition}); the page says {message:?}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("click on {css}: {e}"));
    }

    /// Clicks a square: the man on it if there is one, else the square.
    async fn click_square(&self, square: &str) {
        let man = format!("#board .man[data-square='{square}']");
        if self
            .eval(&format!("document.querySelector(\"{man}\") !== null"))
            .await
            == Value::Bool(true)
        {
            self.click(&man).await;
        } else {
            self.click(&format!("#sq-{square}")).await;
        }
    }

    /// Waits until no man is sliding (a move's animation moves its drawing off its
    /// square for a moment).
    /// Reloads the page and waits until it has brought its game back.
    async fn reload_and_wait(&self) {
        self.client.refresh().await.unwrap();
        self.wait_for(
            "document.body.dataset.state === 'idle' && document.getElementById('message').textContent.startsWith('game restored')",
            "the game restored",
        )
        .await;
    }

    async fn at_rest(&self) {
        self.wait_for("document.getAnimations().length === 0", "the men at rest")
            .await;
    }

    /// Where the centre of a square is drawn, in the viewport (flipped or not).
    async fn centre_of(&self, square: &str) -> (f64, f64) {
        self.at_rest().await;
        let centre = self
            .eval(&format!(
                "(() => {{ const r = document.getElementById('sq-{square}').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
            ))
            .await;
        (centre[0].as_f64().unwrap(), centre[1].as_f64().unwrap())
    }

    /// A real mouse press at the centre of square `from` as drawn, and its release at
    /// `to`'s: a click when they are the same square, else a drag.
    async fn press_and_release(&self, from: &str, to: &str) {
        let (x0, y0) = self.centre_of(from).await;
        let (x1, y1) = self.centre_of(to).await;
        let mouse = MouseActions::new("mouse".into())
            .then(PointerAction::MoveTo {
                duration: None,
                x: x0,
                y: y0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::MoveTo {
                duration: Some(Duration::from_millis(100)),
                x: x1,
                y: y1,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.client.perform_actions(mouse).await.unwrap();
    }

    /// A real mouse click at the centre of a square as drawn, on whatever the page
    /// shows there.
    async fn click_at_square(&self, square: &str) {
        self.press_and_release(square, square).await;
    }

    /// Keys sent to the board, which has the focus (WebDriver's key codes).
    async fn board_keys(&self, keys: &str) {
        let board = self.client.find(Locator::Css("#board")).await.unwrap();
        board.send_keys(keys).await.unwrap();
    }

    /// Every man is drawn on its own square: the man at the centre of each square's
    /// drawing is that square's. Returns where the men are drawn (square, x, y).
    async fn men_on_their_squares(&self) -> Vec<(String, f64, f64)> {
        self.at_rest().await;
        let men = self
            .eval(
                "[...document.querySelectorAll('#board .man')].map((man) => {
                   const square = man.dataset.square;
                   const r = document.getElementById(`sq-${square}`).getBoundingClientRect();
                   const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                   const shown = at && at.closest('.man');
                   const m = man.getBoundingClientRect();
                   return [square, shown ? shown.dataset.square : null, m.x + m.width / 2, m.y + m.height / 2];
                 })",
            )
            .await;
        let men = men.as_array().unwrap();
        assert!(!men.is_empty());
        men.iter()
            .map(|man| {
                assert_eq!(man[0], man[1], "the man drawn on {} is {}", man[0], man[1]);
                (
                    man[0].as_str().unwrap().to_string(),
                    man[2].as_f64().unwrap(),
                    man[3].as_f64().unwrap(),
                )
            })
            .collect()
    }

    /// The move list as words: numbers, moves, `-` for skips, `_` for an empty cell.
    async fn move_list(&self) -> String {
        self.eval("[...document.getElementById('moves').children].map((e) => e.textContent || '_').join(' ')")
            .await
            .as_str()
            .unwrap()
            .to_string()
    }

    /// The text of the element `css` selects.
    async fn text(&self, css: &str) -> String {
        self.eval(&format!("document.querySelector({css:?}).textContent"))
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    async fn message(&self) -> String {
        self.eval("document.getElementById('message').textContent")
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    async fn moves(&self) -> u64 {
        self.eval("document.querySelectorAll('#moves .move').length")
            .await
            .as_u64()
            .unwrap()
    }

    /// The ply the board shows (0: the start).
    async fn shown(&self) -> u64 {
        self.eval("Number((document.querySelector('#moves .move.current') || {dataset: {ply: 0}}).dataset.ply)")
            .await
            .as_u64()
            .unwrap()
    }

    async fn set_seat(&self, seat: usize, kind: &str) {
        self.client
            .find(Locator::Css(&format!("#seat-{seat}")))
            .await
            .unwrap()
            .select_by_value(kind)
            .await
            .unwrap();
        self.wait_for("document.body.dataset.state !== 'loading'", "the seat set")
            .await;
    }

    async fn type_into(&self, css: &str, text: &str) {
        let field = self.client.find(Locator::Css(css)).await.unwrap();
        field.clear().await.unwrap();
        // Set as a paste would, then let the page hear of it.
        self.client
            .execute(
                "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));",
                vec![serde_json::to_value(&field).unwrap(), json!(text)],
            )
            .await
            .unwrap();
    }

    async fn key(&self, key: &str) {
        self.client
            .execute(
                "document.body.dispatchEvent(new KeyboardEvent('keydown', {key: arguments[0], bubbles: true}));",
                vec![json!(key)],
            )
            .await
            .unwrap();
    }

    async fn idle_after(&self, moves: u64, what: &str) -> Duration {
        self.wait_for(
            &format!(
                "document.querySelectorAll('#moves .move').length === {moves} && document.body.dataset.state === 'idle'"
            ),
            what,
        )
        .await
    }

    async fn screenshot(&self, name: &str) {
        if std::env::var_os("LUDUS_SCREENSHOTS").is_none() {
            return;
        }
        let png = self.client.screenshot().await.unwrap();
        let path = format!("{}/adapters/web/{name}.png", env!("CARGO_MANIFEST_DIR"));
        std::fs::write(&path, png).unwrap();
    }

    /// Loads a record through the record box and checks that it can be stepped through
    /// with the keys and the buttons.
    async fn replay_record(&self, record: &str, moves: u64) {
        if self
            .eval("document.getElementById('record-panel').open")
            .await
            != json!(true)
        {
            self.click("#record-panel summary").await;
        }
        self.type_into("#record-text", record).await;
        self.click("#load-record").await;
        self.wait_for(
            &format!("document.getElementById('message').textContent.startsWith('record loaded: {moves} moves') && document.querySelectorAll('#moves .move').length === {moves} && document.body.dataset.state === 'idle'"),
            "the record loaded",
        )
        .await;
        assert_eq!(self.moves().await, moves);
        assert_eq!(self.shown().await, 0);
        for ply in 1..=3 {
            self.key("ArrowRight").await;
            self.wait_for(
                &format!("document.querySelector('#moves .move.current[data-ply=\"{ply}\"]')"),
                "a step on",
            )
            .await;
        }
        self.key("ArrowLeft").await;
        self.wait_for(
            "document.querySelector('#moves .move.current[data-ply=\"2\"]')",
            "a step back",
        )
        .await;
        self.key("End").await;
        self.wait_for(
            &format!("document.querySelector('#moves .move.current[data-ply=\"{moves}\"]')"),
            "the end",
        )
        .await;
        self.click("#to-start").await;
        self.wait_for("!document.querySelector('#moves .move.current') && document.body.dataset.state === 'idle'", "the start").await;
        self.click("#moves .move[data-ply='2']").await;
        self.wait_for(
            "document.querySelector('#moves .move.current[data-ply=\"2\"]')",
            "a click on a move",
        )
        .await;
    }

    /// Sets a position through the position box.
    async fn set_position(&self, text: &str) {
        if self
            .eval("document.getElementById('position-panel').open")
            .await
            != json!(true)
        {
            self.click("#position-panel summary").await;
        }
        self.type_into("#position-text", text).await;
        self.click("#set-position").await;
        self.wait_for(
            "document.getElementById('message').textContent === 'position set' && document.querySelectorAll('#moves .move').length === 0 && document.body.dataset.state === 'idle'",
            "the position set",
        )
        .await;
    }

    /// The end of the game as the page shows it, once it shows it.
    async fn result(&self) -> Value {
        self.wait_for("!document.getElementById('result').hidden", "the result")
            .await;
        self.eval("document.getElementById('result').textContent")
            .await
    }

    /// Ends the WebDriver session; Drop ends the processes.
    async fn close(self) {
        let _ = self.client.clone().close().await;
    }
}

/// Kills chromedriver and the Chromium it started (one process group), also when a
/// test fails half way; then the server (its own Drop) and the profile.
impl Drop for Browser {
    fn drop(&mut self) {
        // SAFETY: kill(2) on the group this test started; no memory is involved.
        unsafe {
            libc::kill(-(self.driver.id() as i32), libc::SIGKILL);
        }
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// The moves of a record, as ludus's own reader counts them.
fn plies_of<G: Game>(record: &str) -> u64 {
    ludus::record::replay(G::start(), record)
        .unwrap()
        .moves
        .len() as u64
}

fn data(path: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn senamukha_in_the_browser() {
    let page = Browser::open("senamukha").await;
    page.set_seat(1, "movetime 200").await;
    page.idle_after(0, "the seat set").await;
    // An empty square, then a square the knight cannot reach: both refused.
    page.click_square("f6").await;
    assert_eq!(page.message().await, "no legal move from f6");
    page.click_square("i3").await;
    page.wait_for(
        "document.querySelector('#sq-h5.target')",
        "the knight's targets",
    )
    .await;
    page.click_square("i6").await;
    assert_eq!(page.message().await, "i3 to i6 is not a legal move");
    assert_eq!(page.moves().await, 0);
    // A legal move, and ludus's answer within its 0.2 s (and the page's round trips).
    page.click_square("i3").await;
    page.click_square("h5").await;
    let answered = page.idle_after(2, "ludus's answer").await;
    assert!(answered < Duration::from_secs(5), "{answered:?}");
    assert_eq!(
        page.eval("document.querySelector('#moves .move').textContent")
            .await,
        json!("Ni3–h5")
    );
    assert!(
        page.eval("document.getElementById('thinking').textContent")
            .await
            .as_str()
            .unwrap()
            .contains("depth")
    );
    page.screenshot("senamukha").await;
    // Flip turns the board half round: every man stays drawn on its own square, now
    // elsewhere on the screen, and a click where a square is drawn takes its man.
    let upright = page.men_on_their_squares().await;
    page.click("#flip").await;
    let flipped = page.men_on_their_squares().await;
    let moved = upright
        .iter()
        .zip(&flipped)
        .filter(|(a, b)| a.0 == b.0 && ((a.1 - b.1).abs() > 5.0 || (a.2 - b.2).abs() > 5.0))
        .count();
    assert_eq!(moved, upright.len(), "{upright:?} {flipped:?}");
    page.click_at_square("g3").await;
    page.wait_for("document.querySelector('#sq-g3.selected')", "g3 selected")
        .await;
    page.screenshot("senamukha-flipped").await;
    page.click_at_square("g3").await;
    page.click("#flip").await;
    page.men_on_their_squares().await;
    // Undo takes back to the person's turn (ludus's move too).
    page.click("#undo").await;
    page.idle_after(0, "the moves taken back").await;
    assert_eq!(page.message().await, "took back 2 moves");
    assert_eq!(page.text("#turn").await, "White to move");
    // The turn, next to the board, says when ludus thinks and for whom.
    page.set_seat(0, "movetime 3000").await;
    page.wait_for(
        "document.getElementById('turn').textContent === 'ludus (White) is thinking'",
        "ludus thinking for White",
    )
    .await;
    page.set_seat(0, "person").await;
    page.idle_after(0, "the search dropped").await;
    // A set position starts clean: no engine line of the old game.
    page.set_position("k10/4P6/11/11/11/11/11/11/11/11/10K w - - 0 1")
        .await;
    assert_eq!(page.text("#thinking").await, "");
    // A choice between moves goes with the position: New game takes it away.
    page.click_square("e10").await;
    page.click_square("e11").await;
    page.wait_for(
        "!document.getElementById('choice').hidden",
        "the promotion choice",
    )
    .await;
    page.click("#new-game").await;
    page.wait_for(
        "document.getElementById('choice').hidden && document.body.dataset.state === 'idle'",
        "the choice gone",
    )
    .await;
    assert_eq!(
        page.eval("document.querySelectorAll('#choice button').length")
            .await,
        json!(0)
    );
    // A game from a set position, copied and replayed: the record carries its start.
    page.set_seat(1, "person").await;
    page.set_position("k10/4P6/11/11/11/11/11/11/11/11/10K b - - 0 1")
        .await;

    page.click_square("a11").await;
    page.click_square("b11").await;
    page.idle_after(1, "Ka11-b11").await;
    page.eval("document.getElementById('record-panel').open = true")
        .await;
    page.click("#copy-record").await;
    page.wait_for(
        "document.getElementById('record-text').value.startsWith('[Position ')",
        "the record copied",
    )
    .await;
    let record = page
        .eval("document.getElementById('record-text').value")
        .await;
    let record = record.as_str().unwrap().to_string();
    assert!(
        record.starts_with("[Position \"k10/4P6/11/11/11/11/11/11/11/11/10K b - - 0 1\"]"),
        "{record}"
    );
    page.click("#new-game").await;
    page.idle_after(0, "a new game").await;
    page.eval("document.getElementById('record-panel').open = true")
        .await;
    page.type_into("#record-text", &record).await;
    page.click("#load-record").await;
    page.wait_for("document.getElementById('message').textContent.startsWith('record loaded: 1 moves') && document.body.dataset.state === 'idle'", "the record loaded").await;
    page.key("End").await;
    page.wait_for("document.querySelector('#moves .move.current[data-ply=\"1\"]') && document.body.dataset.state === 'idle'", "the end").await;
    page.eval("document.getElementById('position-panel').open = true")
        .await;
    page.click("#show-position").await;
    page.wait_for("document.getElementById('position-text').value === '1k9/4P6/11/11/11/11/11/11/11/11/10K w - - 1 2'", "the position after the record").await;
    // A promotion asks for the piece.
    page.set_position("k10/4P6/11/11/11/11/11/11/11/11/10K w - - 0 1")
        .await;
    page.click_square("e10").await;
    page.click_square("e11").await;
    page.wait_for(
        "!document.getElementById('choice').hidden",
        "the promotion choice",
    )
    .await;
    assert_eq!(
        page.eval("[...document.querySelectorAll('#choice button')].map(b => b.dataset.move).sort().join(' ')").await,
        json!("e10e11e e10e11n e10e11r")
    );
    page.click("#choice button[data-move='e10e11r']").await;
    page.idle_after(2, "the promotion and ludus's answer").await;
    assert_eq!(
        page.eval("document.querySelector('#moves .move').dataset.move")
            .await,
        json!("e10e11r")
    );
    // The seed's first game, stepped through; then its mating move played by a click
    // on the position before it.
    let game = data("senamukha/game1.txt");
    let plies = plies_of::<senamukha::Position>(&game);
    page.replay_record(&game, plies).await;
    // Stepped back, every move keeps the record's notation (long form, captures `:`).
    let list = page.move_list().await;
    assert!(
        list.split(' ')
            .filter(|w| !w.ends_with('.'))
            .all(|w| w.contains('–') || w.contains(':')),
        "{list}"
    );
    let mate = page
        .eval(&format!(
            "document.querySelector('#moves .move[data-ply=\"{plies}\"]').dataset.move"
        ))
        .await;
    let mate = mate.as_str().unwrap();
    page.set_seat(1, "person").await;
    page.click(&format!("#moves .move[data-ply='{}']", plies - 1))
        .await;
    page.wait_for(&format!("document.querySelector('#moves .move.current[data-ply=\"{}\"]') && document.body.dataset.state === 'idle'", plies - 1), "the position before the mate").await;
    let (from, to) = split_coordinates(mate);
    page.click_square(from).await;
    page.click_square(to).await;
    // The mate replaces the record's own last move: the page asks first.
    page.wait_for(
        "!document.getElementById('question').hidden",
        "the question",
    )
    .await;
    page.click("#answer-yes").await;
    assert_eq!(
        page.result().await,
        json!("Game over: black wins (checkmate)")
    );
    // A new game played by keys: the cursor starts at a11; i3 is 8 down and 8 right,
    // h5 2 up and 1 left of it.
    page.click("#new-game").await;
    page.wait_for(
        "document.getElementById('seat-1').value !== 'person'",
        "the new game's seats",
    )
    .await;
    page.set_seat(1, "person").await;
    page.idle_after(0, "a new game").await;
    let (down, right, up, left) = ("\u{E015}", "\u{E014}", "\u{E013}", "\u{E012}");
    let enter = "\u{E007}";
    page.board_keys(&format!("{}{}{enter}", down.repeat(8), right.repeat(8)))
        .await;
    page.wait_for(
        "document.querySelector('#sq-i3.selected')",
        "i3 chosen by keys",
    )
    .await;
    // What a screen reader hears of the square under the cursor.
    assert_eq!(
        page.eval("document.getElementById(document.getElementById('board').getAttribute('aria-activedescendant')).getAttribute('aria-label')").await,
        json!("i3, white knight")
    );
    page.board_keys(&format!("{}{left}{enter}", up.repeat(2)))
        .await;
    page.idle_after(1, "Ni3-h5 played by keys").await;
    assert_eq!(
        page.eval("document.querySelector('#moves .move').dataset.move")
            .await,
        json!("i3h5")
    );
    // Black's reply dragged, then one typed in the seed's notation.
    page.press_and_release("i9", "h7").await;
    page.idle_after(2, "Ni9-h7 dragged").await;
    page.type_into("#move-text", "Nc3–d5").await;
    page.click("#move-form button").await;
    page.idle_after(3, "Nc3-d5 typed").await;
    assert_eq!(page.message().await, "played Nc3–d5");
    page.type_into("#move-text", "Nc3–d5").await;
    page.click("#move-form button").await;
    page.wait_for(
        "document.getElementById('message').dataset.kind === 'error'",
        "the refusal",
    )
    .await;
    assert!(
        page.message().await.starts_with("illegal move: Nc3–d5"),
        "{}",
        page.message().await
    );
    assert_eq!(page.moves().await, 3);
    // On a phone the turn and the whole board show without scrolling.
    page.client.set_window_size(400, 800).await.unwrap();
    page.wait_for("window.innerWidth <= 400", "the phone-sized window")
        .await;
    assert_eq!(
        page.eval("(() => { const b = document.getElementById('board').getBoundingClientRect(); const t = document.getElementById('turn').getBoundingClientRect(); return t.top >= 0 && t.bottom <= b.top && b.bottom <= window.innerHeight && b.right <= window.innerWidth; })()").await,
        json!(true)
    );
    assert_eq!(page.text("#turn").await, "Black to move");
    page.screenshot("senamukha-phone").await;
    page.close().await;
}

/// `i3h5` as `("i3", "h5")`.
fn split_coordinates(mv: &str) -> (&str, &str) {
    let second = mv[1..].find(|c: char| c.is_ascii_lowercase()).unwrap() + 1;
    let end = mv[second + 1..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(mv.len(), |i| i + second + 1);
    (&mv[..second], &mv[second..end])
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn mentula_in_the_browser_with_one_person_and_three_engines() {
    let page = Browser::open("mentula").await;
    for seat in 1..4 {
        page.set_seat(seat, "movetime 200").await;
    }
    page.idle_after(0, "the seats set").await;
    page.click_square("d4").await;
    assert_eq!(page.message().await, "no legal move from d4");
    // White's a1 jumps over b2 to c3; then the three engines answer.
    page.click_square("a1").await;
    page.wait_for(
        "document.querySelector('#sq-c3.target')",
        "the jump's target",
    )
    .await;
    page.click_square("c3").await;
    let answered = page.idle_after(4, "three engines' answers").await;
    assert!(answered < Duration::from_secs(10), "{answered:?}");
    assert_eq!(
        page.eval("document.querySelector('#moves .move').dataset.move")
            .await,
        json!("a1-b2-c3")
    );
    // The list by rounds: the players' columns, then round 1 with its four moves.
    let list = page.move_list().await;
    assert!(
        list.starts_with("_ white yellow red magenta 1. a1-b2-c3 "),
        "{list}"
    );
    assert_eq!(list.split(' ').count(), 10, "{list}");
    // Flipped, every man is still drawn on its own square.
    page.click("#flip").await;
    page.men_on_their_squares().await;
    page.click("#flip").await;
    // The reaches, on request: at the start of play every square is shared by all four.
    page.click("#layer-reach").await;
    page.wait_for(
        "document.querySelector('#board g.reach.shared')",
        "the reaches",
    )
    .await;
    assert_eq!(
        page.eval("document.getElementById('layer-reach-legend').hidden")
            .await,
        json!(false)
    );
    page.screenshot("mentula").await;
    page.click("#layer-reach").await;
    let record = data("mentula/seed-full.txt");
    page.replay_record(&record, plies_of::<mentula::Position>(&record))
        .await;
    // The end: white takes the last man of the last other player.
    page.set_position("8/8/8/8/8/2Y5/1W6/W7 w 1 1").await;
    page.click_square("a1").await;
    page.click_square("c3").await;
    assert_eq!(
        page.result().await,
        json!(
            "Game over: white wins (one player left; white 64, yellow 0, red 0, magenta 0; ranking white > yellow = red = magenta)"
        )
    );
    // The long result wraps beside the board: the side panel stays at its right.
    assert_eq!(
        page.eval("document.querySelector('aside').getBoundingClientRect().left >= document.getElementById('board').getBoundingClientRect().right").await,
        json!(true)
    );
    page.close().await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn mangala_in_the_browser() {
    let page = Browser::open("mangala").await;
    page.set_seat(1, "movetime 200").await;
    page.idle_after(0, "the seat set").await;
    // North's pit, on South's turn.
    page.click("#pit-a").await;
    assert!(page.message().await.starts_with("pit a cannot be sown now"));
    page.click("#pit-C").await;
    let answered = page.idle_after(2, "ludus's answer").await;
    assert!(answered < Duration::from_secs(5), "{answered:?}");
    page.screenshot("mangala").await;
    let record = data("mangala/opening.txt");
    page.replay_record(&record, plies_of::<mangala::Position>(&record))
        .await;
    // North's row empty after A: North passes, and the list shows the pass as the
    // record does.
    page.set_position("2,0,0,0,0,0/0,0,0,0,0,0 S 35 35").await;
    page.click("#pit-A").await;
    page.idle_after(1, "A sown").await;
    page.click("#pit-B").await;
    page.result().await;
    page.idle_after(2, "B sown").await;
    assert_eq!(page.move_list().await, "1. A - 2. B");
    // The same game by keys: the cursor starts on A; B is one to the right.
    page.set_position("2,0,0,0,0,0/0,0,0,0,0,0 S 35 35").await;
    page.board_keys("\u{E007}").await;
    page.idle_after(1, "A sown by keys").await;
    page.board_keys("\u{E014}\u{E007}").await;
    page.result().await;
    page.idle_after(2, "B sown by keys").await;
    page.set_position("0,0,0,0,0,1/1,0,0,0,0,0 S 35 35").await;
    page.click("#pit-F").await;
    assert_eq!(
        page.result().await,
        json!("Game over: south wins (all pits empty; south 37, north 35)")
    );
    page.close().await;
}

/// A person plays a whole game against ludus at a strength level: the seats offer
/// every level with its Elo (from `describe`), and the level answers every move.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_person_plays_a_game_against_a_level() {
    let page = Browser::open("mangala").await;
    let offered = page
        .eval("[...document.getElementById('seat-1').options].map((o) => `${o.value}|${o.text}`)")
        .await;
    let offered: Vec<String> = serde_json::from_value(offered).unwrap();
    assert!(
        offered.contains(&"level 0|ludus, level 0 (Elo 500)".to_string()),
        "{offered:?}"
    );
    assert!(
        offered
            .iter()
            .any(|o| o.starts_with("level 19|ludus, level 19 (Elo ")),
        "{offered:?}"
    );
    page.set_seat(1, "level 0").await;
    page.idle_after(0, "the seat set").await;
    // The person (South) plays its first legal move whenever it is to move.
    let mut played = 0;
    for _ in 0..300 {
        page.wait_for(
            "document.body.dataset.state === 'idle' && (state.over || state.seats[state.mover] === 'person')",
            "the person's turn",
        )
        .await;
        if page.eval("state.over").await == json!(true) {
            break;
        }
        let mv = page.eval("state.legal[0]").await;
        page.click(&format!("#pit-{}", mv.as_str().unwrap())).await;
        played += 1;
    }
    assert!(played > 3, "{played}");
    let result = page.result().await;
    assert!(
        result.as_str().unwrap().starts_with("Game over"),
        "{result}"
    );
    page.close().await;
}

/// axe-core's checker, as `.ci/run` installs it (`npm ci` in tests/axe).
const AXE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/axe/node_modules/axe-core/axe.min.js"
);

/// The serious and critical findings of axe-core on the page as it is now: each rule
/// broken, with its help and the elements that break it.
async fn accessibility_faults(page: &Browser) -> Vec<String> {
    let source = std::fs::read_to_string(AXE)
        .unwrap_or_else(|e| panic!("{AXE}: {e} (run `npm ci` in tests/axe)"));
    page.client
        .execute(&format!("{source}\nreturn typeof axe;"), vec![])
        .await
        .unwrap();
    let found = page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document).then((r) => done(r.violations
               .filter((v) => v.impact === 'serious' || v.impact === 'critical')
               .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)));",
            vec![],
        )
        .await
        .unwrap();
    found
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
#[ignore = "needs chromium, chromium-driver and tests/axe; .ci/run runs it"]
async fn every_game_s_page_passes_axe_core() {
    for &game in ludus::games::NAMES {
        let page = Browser::open(game).await;
        // With what only some pages show: the clocks, and every diagram layer.
        set_clock(&page, "5+3").await;
        let layers = page
            .eval("[...document.querySelectorAll('#layers input')].map((b) => b.id)")
            .await;
        for layer in layers.as_array().unwrap() {
            page.click(&format!("#{}", layer.as_str().unwrap())).await;
        }
        page.wait_for("document.body.dataset.state === 'idle'", "the layers")
            .await;
        let faults = accessibility_faults(&page).await;
        assert!(faults.is_empty(), "{game}: {faults:#?}");
        page.close().await;
    }
}

/// The time left on a seat's clock as the page shows it, in milliseconds.
async fn clock_ms(page: &Browser, seat: usize) -> u64 {
    page.eval(&format!(
        "Number(document.querySelectorAll('#clocks .clock')[{seat}].dataset.ms)"
    ))
    .await
    .as_u64()
    .unwrap()
}

/// Types a time control into the clock box, as a person does before leaving it.
async fn type_clock(page: &Browser, control: &str) {
    page.type_into("#clock", control).await;
    page.client
        .execute(
            "document.getElementById('clock').dispatchEvent(new Event('change'));",
            vec![],
        )
        .await
        .unwrap();
}

/// Types a move into the move box and plays it.
async fn type_move(page: &Browser, text: &str) {
    page.type_into("#move-text", text).await;
    page.click("#move-form button").await;
}

/// Waits until the clock of `seat` runs.
async fn clock_runs(page: &Browser, seat: usize) {
    page.wait_for(
        &format!(
            "document.querySelectorAll('#clocks .clock')[{seat}].classList.contains('running')"
        ),
        "the clock running",
    )
    .await;
}

async fn set_clock(page: &Browser, control: &str) {
    type_clock(page, control).await;
    page.wait_for(
        "document.body.dataset.state === 'idle' && document.getElementById('message').textContent.startsWith('clocks')",
        "the clocks set",
    )
    .await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn clocks_run_and_a_flag_fall_ends_the_game() {
    let page = Browser::open("senamukha").await;
    page.set_seat(1, "person").await;
    // No clocks until a time control is given; an unreadable one is refused.
    assert_eq!(
        page.eval("document.getElementById('clocks').hidden").await,
        json!(true)
    );
    type_clock(&page, "5 minutes").await;
    page.wait_for(
        "document.getElementById('message').textContent.startsWith('unreadable time control: 5 minutes')",
        "the refusal",
    )
    .await;
    // 3 seconds each: a clock a seat, in the players' colours, not running before the
    // first move.
    set_clock(&page, "0.05+0").await;
    assert_eq!(
        page.eval(
            "[...document.querySelectorAll('#clocks .clock')].map((c) => c.textContent).join(' | ')"
        )
        .await,
        json!("white 0:03.0 | black 0:03.0")
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(clock_ms(&page, 0).await, 3000);
    type_move(&page, "Ni3–h5").await;
    page.idle_after(1, "white's move").await;
    clock_runs(&page, 1).await;
    // Paused, the clock waits.
    page.click("#pause").await;
    page.wait_for("document.body.dataset.state === 'idle'", "paused")
        .await;
    let paused = clock_ms(&page, 1).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(clock_ms(&page, 1).await, paused);
    page.click("#pause").await;
    // Black does not move: its flag falls, and the game is over.
    assert_eq!(
        page.result().await,
        json!("Game over: white wins (black lost on time)")
    );
    assert_eq!(clock_ms(&page, 1).await, 0);
    assert_eq!(clock_ms(&page, 0).await, 3000);
    assert_eq!(page.text("#turn").await, "Game over");
    type_move(&page, "Nc9–d7").await;
    page.wait_for(
        "document.getElementById('message').textContent === 'the game is over'",
        "the move refused",
    )
    .await;
    // A new game gives the clocks back.
    page.click("#new-game").await;
    page.idle_after(0, "the new game").await;
    page.wait_for(
        "document.getElementById('result').hidden",
        "the result gone",
    )
    .await;
    assert_eq!(clock_ms(&page, 1).await, 3000);
    // A time per move: every move gives the mover its whole time back.
    page.set_seat(1, "person").await;
    set_clock(&page, "3/move").await;
    type_move(&page, "Ni3–h5").await;
    page.idle_after(1, "white's move").await;
    clock_runs(&page, 1).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(clock_ms(&page, 1).await < 2_800);
    type_move(&page, "Nc9–d7").await;
    page.idle_after(2, "black's move").await;
    assert_eq!(clock_ms(&page, 1).await, 3000);
    page.click("#new-game").await;
    page.idle_after(0, "another new game").await;
    // ludus on its clock: it is told the clocks and spends some of its own.
    set_clock(&page, "0.5+0.2").await;
    page.set_seat(1, "clock").await;
    type_move(&page, "Ni3–h5").await;
    page.idle_after(2, "ludus's answer on its clock").await;
    // Its line, once it has moved, in the notation chosen (the seed's long form).
    let line = page.text("#thinking").await;
    let moves = line.rsplit(" · ").next().unwrap();
    assert!(
        !moves.is_empty() && moves.split(' ').all(|m| m.contains('–') || m.contains(':')),
        "{line}"
    );
    let black = clock_ms(&page, 1).await;
    assert!(
        black < 30_200 && black > 20_000,
        "black has {black} ms left"
    );
    let white = clock_ms(&page, 0).await;
    assert!(
        white <= 30_000 && white > 25_000,
        "white has {white} ms left"
    );
    clock_runs(&page, 0).await;
    page.screenshot("senamukha-clocks").await;
    page.close().await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_tab_past_the_session_limit_says_so() {
    let page = Browser::open_with("mangala", &["--sessions", "2"]).await;
    let address = format!("http://{}/?game=mangala", page.server.address);
    for tab in 2..=3 {
        let window = page.client.new_window(true).await.unwrap();
        page.client.switch_to_window(window.handle).await.unwrap();
        page.client.goto(&address).await.unwrap();
        let settled = "['idle', 'closed'].includes(document.body.dataset.state)";
        page.wait_for(settled, "the tab settled").await;
        let message = page.message().await;
        if tab == 2 {
            assert!(!message.contains("sessions are in use"), "{message}");
            assert_eq!(
                page.eval("document.body.dataset.state").await,
                json!("idle")
            );
        } else {
            assert_eq!(
                message,
                "all 2 engine sessions are in use; close a tab and reload"
            );
        }
    }
    page.close().await;
}

/// The board's review (issue 57): a planted Mangala II blunder is marked in the move
/// list, the graph and the list of marks; a mark and a click on the graph go to their
/// moves; the players' accuracies are shown; the page stays axe-clean.
#[tokio::test]
#[ignore = "needs chromium, chromium-driver and tests/axe; .ci/run runs it"]
async fn a_review_marks_a_planted_blunder_and_goes_to_it() {
    let page = Browser::open("mangala").await;
    // South's F after C d gives North a large capture (tests/review.rs plants it too).
    page.replay_record("C d F a", 4).await;
    page.click("#review-game").await;
    page.wait_for(
        "!document.getElementById('review-players').hidden && document.getElementById('review-status').textContent.startsWith('reviewed 4 moves')",
        "the review",
    )
    .await;
    assert_eq!(
        page.eval("document.querySelector('#moves .move[data-ply=\"3\"]').dataset.mark")
            .await,
        json!("blunder")
    );
    assert_eq!(
        page.eval("document.querySelector('#moves .move[data-ply=\"3\"]').textContent")
            .await,
        json!("F??")
    );
    assert_eq!(
        page.eval("document.querySelectorAll('#review-graph circle.mark[data-ply=\"3\"]').length")
            .await,
        json!(1)
    );
    let rows = page
        .eval("[...document.querySelectorAll('#review-players tbody tr')].map((r) => r.dataset.player)")
        .await;
    assert_eq!(rows, json!(["south", "north"]));
    let south: f64 = page
        .eval("Number(document.querySelector('#review-players tbody tr').cells[1].textContent)")
        .await
        .as_f64()
        .unwrap();
    assert!((0.0..100.0).contains(&south), "{south}");
    page.click("#to-start").await;
    page.wait_for(
        "!document.querySelector('#moves .move.current')",
        "the start",
    )
    .await;
    page.click("#review-marks button[data-ply='3'][data-mark='blunder']")
        .await;
    page.wait_for(
        "document.querySelector('#moves .move.current[data-ply=\"3\"]') && document.body.dataset.state === 'idle'",
        "the blunder shown",
    )
    .await;
    // A click at the right end of the graph goes to the last move.
    let box_ = page
        .eval("(() => { const r = document.querySelector('#review-graph svg').getBoundingClientRect(); return [r.right - 2, r.y + r.height / 2]; })()")
        .await;
    let actions = MouseActions::new("mouse".to_string())
        .then(PointerAction::MoveTo {
            duration: None,
            x: box_[0].as_f64().unwrap(),
            y: box_[1].as_f64().unwrap(),
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    page.client.perform_actions(actions).await.unwrap();
    page.wait_for(
        "document.querySelector('#moves .move.current[data-ply=\"4\"]') && document.body.dataset.state === 'idle'",
        "the last move from the graph",
    )
    .await;
    let faults = accessibility_faults(&page).await;
    assert!(faults.is_empty(), "{faults:#?}");
    page.screenshot("review").await;
    page.close().await;
}

/// A review of a finished Sena-Mukha game (the seeds' first) and of a Mentula game with
/// a planted blunder: the Mentula graph draws a line a player, and the blunder is
/// marked in the mover's column.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn reviews_of_a_finished_game_and_of_a_four_player_game() {
    let page = Browser::open("senamukha").await;
    let record = data("senamukha/game1.txt");
    let plies = plies_of::<senamukha::Position>(&record);
    page.replay_record(&record, plies).await;
    page.click("#review-game").await;
    page.wait_for(
        &format!("document.getElementById('review-status').textContent.startsWith('reviewed {plies} moves')"),
        "the review of the whole game",
    )
    .await;
    let rows = page
        .eval("[...document.querySelectorAll('#review-players tbody tr')].map((r) => r.dataset.player)")
        .await;
    assert_eq!(rows, json!(["white", "black"]));
    page.screenshot("senamukha-review").await;
    page.close().await;

    let page = Browser::open("mentula").await;
    let openings = data("mentula/openings.txt");
    let opening = openings
        .lines()
        .filter(|l| l.starts_with("startpos"))
        .nth(1)
        .unwrap();
    let moves: Vec<&str> = opening.split_whitespace().skip(2).collect();
    let record = format!("{} b1-b2-b3", moves.join(" "));
    page.replay_record(&record, 13).await;
    page.click("#review-game").await;
    page.wait_for(
        "document.getElementById('review-status').textContent.startsWith('reviewed 13 moves')",
        "the Mentula review",
    )
    .await;
    assert_eq!(
        page.eval("document.querySelectorAll('#review-graph polyline[data-player]').length")
            .await,
        json!(4)
    );
    let planted = page
        .eval("[document.querySelector('#moves .move[data-ply=\"13\"]').dataset.mark, document.querySelector('#moves .move[data-ply=\"13\"]').dataset.player]")
        .await;
    assert_eq!(planted, json!(["blunder", "white"]));
    page.screenshot("mentula-review").await;
    page.close().await;
}

/// What the page keeps of its game (issue 58): the moves, the position shown, the
/// seats and the clock text; and the address.
async fn kept(page: &Browser) -> Value {
    page.eval("[state.game, state.start, state.moves, state.view, state.seats, document.getElementById('clock').value]")
        .await
}

/// A reload in the middle of a game of each kind keeps it: its moves, the position
/// shown, the seats and the clock; the address names the game and its moves; and the
/// game goes on after it (issue 58).
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_reload_keeps_the_game_of_each_kind() {
    for (game, record) in [
        ("senamukha", data("senamukha/game1.txt")),
        ("mentula", data("mentula/seed-short.txt")),
        ("mangala", data("mangala/opening.txt")),
    ] {
        let page = Browser::open(game).await;
        let plies = match game {
            "senamukha" => plies_of::<senamukha::Position>(&record),
            "mentula" => plies_of::<mentula::Position>(&record),
            _ => plies_of::<mangala::Position>(&record),
        };
        page.replay_record(&record, plies).await;
        set_clock(&page, "5+3").await;
        page.set_seat(1, "depth 1").await;
        let before = kept(&page).await;
        let address = page.eval("location.search").await;
        assert!(
            address.as_str().unwrap().contains("moves="),
            "{game}: {address}"
        );
        page.reload_and_wait().await;
        assert_eq!(kept(&page).await, before, "{game}");
        assert_eq!(page.moves().await, plies, "{game}");
        assert_eq!(page.shown().await, 2, "{game}");
        page.close().await;
    }
    // Mid-game against ludus: the game goes on after the reload.
    let page = Browser::open("mangala").await;
    page.set_seat(1, "movetime 200").await;
    page.click("#pit-C").await;
    page.idle_after(2, "ludus's answer").await;
    page.reload_and_wait().await;
    assert_eq!(page.moves().await, 2);
    let mv = page.eval("state.legal[0]").await;
    page.click(&format!("#pit-{}", mv.as_str().unwrap())).await;
    page.idle_after(4, "ludus's answer after the reload").await;
    page.close().await;
}

/// A move made at an earlier position asks before it replaces the moves after it, and
/// keeps the game when told to (issue 58).
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_move_at_an_earlier_position_asks_before_replacing_the_rest() {
    let page = Browser::open("mangala").await;
    page.set_seat(1, "person").await;
    page.replay_record("C d F a", 4).await;
    page.click("#moves .move[data-ply='1']").await;
    page.wait_for(
        "document.querySelector('#moves .move.current[data-ply=\"1\"]') && document.body.dataset.state === 'idle'",
        "the first move shown",
    )
    .await;
    page.click("#pit-e").await;
    page.wait_for(
        "!document.getElementById('question').hidden",
        "the question",
    )
    .await;
    assert!(
        page.text("#question-text")
            .await
            .contains("replaces the 3 moves")
    );
    page.click("#answer-no").await;
    page.wait_for("document.getElementById('question').hidden", "the answer")
        .await;
    assert_eq!(page.moves().await, 4);
    assert_eq!(page.eval("state.moves").await, json!(["C", "d", "F", "a"]));
    page.click("#pit-e").await;
    page.wait_for(
        "!document.getElementById('question').hidden",
        "the question again",
    )
    .await;
    page.click("#answer-yes").await;
    page.idle_after(2, "the move played").await;
    assert_eq!(page.eval("state.moves").await, json!(["C", "e"]));
    page.close().await;
}

/// Stepping back while ludus thinks on its clock stops its search and its clock; at
/// the end again it thinks on and does not lose on time (issue 58). The position and
/// record boxes are emptied by a switch of game.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn looking_back_while_ludus_thinks_stops_its_clock() {
    let page = Browser::open("mangala").await;
    set_clock(&page, "0.25+0").await;
    page.set_seat(1, "clock").await;
    page.click("#pit-C").await;
    page.wait_for("state.thinking", "ludus thinking").await;
    page.click("#to-start").await;
    page.wait_for(
        "document.body.dataset.state === 'idle' && !state.thinking && state.view === 0",
        "the start shown",
    )
    .await;
    let first = clock_ms(&page, 1).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        clock_ms(&page, 1).await,
        first,
        "ludus's clock ran while it could not think"
    );
    page.click("#to-end").await;
    page.idle_after(2, "ludus's move after the look back").await;
    assert!(page.eval("state.clock.flag").await.is_null());
    // A switch of game empties the boxes of the last game's texts.
    page.click("#record-panel summary").await;
    page.click("#position-panel summary").await;
    page.type_into("#record-text", "C d").await;
    page.type_into("#position-text", "2,0,0,0,0,0/0,0,0,0,0,0 S 35 35")
        .await;
    page.client
        .find(Locator::Css("#game"))
        .await
        .unwrap()
        .select_by_value("senamukha")
        .await
        .unwrap();
    page.wait_for(
        "document.querySelector('#board svg.senamukha') && document.body.dataset.state === 'idle'",
        "the other game",
    )
    .await;
    assert_eq!(
        page.eval("document.getElementById('record-text').value")
            .await,
        json!("")
    );
    assert_eq!(
        page.eval("document.getElementById('position-text').value")
            .await,
        json!("")
    );
    page.close().await;
}

/// Resign, abort and draw offers (issue 58): abort before every player has moved,
/// resign after, each ending the game with its reason shown and kept over a reload;
/// no take-back after; ludus declines a draw when it stands better; a person seat is
/// asked.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn resign_abort_and_draw_end_the_game_with_their_reasons() {
    let page = Browser::open("senamukha").await;
    let visible = |id: &str| {
        format!(
            "!document.getElementById('{id}').hidden && !document.getElementById('{id}').disabled"
        )
    };
    assert_eq!(page.eval(&visible("abort")).await, json!(true));
    assert_eq!(
        page.eval("document.getElementById('resign').hidden").await,
        json!(true)
    );
    page.click("#abort").await;
    assert_eq!(page.result().await, json!("Game aborted: no result"));
    page.click("#new-game").await;
    page.wait_for(
        "document.getElementById('result').hidden && document.body.dataset.state === 'idle'",
        "a new game",
    )
    .await;
    page.set_seat(1, "depth 1").await;
    type_move(&page, "e4e5").await;
    page.idle_after(2, "ludus's answer").await;
    assert_eq!(page.eval(&visible("resign")).await, json!(true));
    page.click("#resign").await;
    assert_eq!(
        page.result().await,
        json!("Game over: black wins (white resigned)")
    );
    page.click("#undo").await;
    page.wait_for(
        "document.getElementById('message').textContent.startsWith('the game is over')",
        "no take-back",
    )
    .await;
    assert_eq!(page.moves().await, 2);
    page.reload_and_wait().await;
    assert_eq!(
        page.result().await,
        json!("Game over: black wins (white resigned)")
    );
    // Two rooks down, White offers a draw: ludus declines.
    page.set_position("3nenrn3/3ppppp3/nrnenknenrn/ppppp1ppppp/11/11/11/PPPPP1PPPPP/N1NENKNEN1N/3PPPPP3/3NRNEN3 w - - 0 1")
        .await;
    page.set_seat(1, "depth 1").await;
    type_move(&page, "e4e5").await;
    page.idle_after(2, "ludus's answer").await;
    page.click("#offer-draw").await;
    page.wait_for(
        "document.getElementById('message').textContent.includes('declines the draw')",
        "the draw declined",
    )
    .await;
    assert_eq!(
        page.eval("document.getElementById('result').hidden").await,
        json!(true)
    );
    // Against a person, the other person is asked.
    page.set_seat(1, "person").await;
    page.click("#offer-draw").await;
    page.wait_for(
        "!document.getElementById('question').hidden",
        "the question",
    )
    .await;
    assert!(
        page.text("#question-text")
            .await
            .contains("white offers a draw")
    );
    page.click("#answer-yes").await;
    assert_eq!(page.result().await, json!("Game over: draw agreed"));
    page.close().await;
}

/// A take-back is a request (issue 58): between two persons the other is asked and
/// may decline; ludus's seats always agree (senamukha_in_the_browser).
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_take_back_between_persons_is_asked_and_may_be_declined() {
    let page = Browser::open("senamukha").await;
    page.set_seat(1, "person").await;
    type_move(&page, "e4e5").await;
    page.idle_after(1, "white's move").await;
    let question = "!document.getElementById('question').hidden";
    page.click("#undo").await;
    page.wait_for(question, "the request").await;
    assert_eq!(
        page.text("#question-text").await,
        "white asks to take back 1 move. black: accept?"
    );
    page.click("#answer-no").await;
    page.wait_for(
        "document.getElementById('message').textContent === 'black declines the take-back'",
        "the refusal",
    )
    .await;
    assert_eq!(page.moves().await, 1);
    page.click("#undo").await;
    page.wait_for(question, "the request again").await;
    page.click("#answer-yes").await;
    page.idle_after(0, "the move taken back").await;
    assert_eq!(page.message().await, "took back 1 move");
    page.close().await;
}

/// ludus's thinking names its viewpoint and its chances, and its line is in the
/// notation chosen while it thinks, not only once it has moved (issue 58); Mentula's
/// numbers are each player's chance of first place.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn the_thinking_line_states_its_viewpoint_and_keeps_its_notation() {
    let page = Browser::open("senamukha").await;
    page.set_seat(1, "movetime 3000").await;
    type_move(&page, "Ni3–h5").await;
    page.wait_for(
        "state.thinking && document.getElementById('thinking').textContent.includes(' · ')",
        "a line while ludus thinks",
    )
    .await;
    let live = page.text("#thinking").await;
    assert!(live.starts_with("ludus (black): depth "), "{live}");
    assert!(live.contains(" for black (wins "), "{live}");
    let moves = live.rsplit(" · ").next().unwrap();
    assert!(
        !moves.is_empty() && moves.split(' ').all(|m| m.contains('–') || m.contains(':')),
        "the live line is in the long form: {live}"
    );
    page.close().await;
    let page = Browser::open("mentula").await;
    page.set_seat(1, "movetime 3000").await;
    page.set_seat(2, "person").await;
    page.set_seat(3, "person").await;
    let mv = page.eval("state.legal[0]").await;
    type_move(&page, mv.as_str().unwrap()).await;
    page.wait_for(
        "state.thinking && document.getElementById('thinking').textContent.includes('first place')",
        "Mentula's chances while ludus thinks",
    )
    .await;
    let live = page.text("#thinking").await;
    assert!(
        live.contains("first place: white ") && live.contains(" %, yellow "),
        "{live}"
    );
    page.close().await;
}

/// Analysis mode (issue 58): ludus analyses the position shown, three lines in the
/// move list's notation, the best move as an arrow, an evaluation bar that screen
/// readers read as a meter named "evaluation" (Mentula: one a player); a new position
/// shown is analysed anew; a right-drag draws an arrow; nobody moves for ludus until
/// analysis is off.
#[tokio::test]
#[ignore = "needs chromium, chromium-driver and tests/axe; .ci/run runs it"]
async fn analysis_mode_shows_lines_arrows_and_the_evaluation_meter() {
    let page = Browser::open("senamukha").await;
    page.set_seat(1, "movetime 200").await;
    page.click("#analysis").await;
    page.wait_for(
        "document.querySelectorAll('#analysis-lines li').length === 3 && document.querySelector('#board polyline.arrow.best')",
        "three lines and the best arrow",
    )
    .await;
    let meter = page
        .eval("(() => { const m = document.querySelector('[role=meter][aria-label=evaluation]'); return [m.getAttribute('aria-valuenow'), m.getAttribute('aria-valuetext')]; })()")
        .await;
    let now: u32 = meter[0].as_str().unwrap().parse().unwrap();
    assert!((1..100).contains(&now), "{meter}");
    assert!(meter[1].as_str().unwrap().starts_with("white "), "{meter}");
    let lines = page
        .eval("[...document.querySelectorAll('#analysis-lines li')].map((l) => l.textContent)")
        .await;
    for line in lines.as_array().unwrap() {
        let line = line.as_str().unwrap();
        assert!(line.contains(" for white "), "{line}");
        assert!(line.contains('–'), "the long form: {line}");
    }
    // A move played in analysis: ludus does not answer it, and analyses the new
    // position for black.
    type_move(&page, "Ni3–h5").await;
    page.wait_for(
        "document.querySelectorAll('#moves .move').length === 1 && document.getElementById('analysis-head').textContent.includes('for black')",
        "the analysis of the new position",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(page.moves().await, 1, "ludus moved in analysis mode");
    // A right-drag from e4 to e5 draws an arrow.
    let (x0, y0) = page.centre_of("e4").await;
    let (x1, y1) = page.centre_of("e5").await;
    let right = 2;
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x: x0,
            y: y0,
        })
        .then(PointerAction::Down { button: right })
        .then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(100)),
            x: x1,
            y: y1,
        })
        .then(PointerAction::Up { button: right });
    page.client.perform_actions(mouse).await.unwrap();
    page.wait_for(
        "document.querySelector('#board polyline.arrow.drawn[data-from=e4][data-to=e5]')",
        "the drawn arrow",
    )
    .await;
    let faults = accessibility_faults(&page).await;
    assert!(faults.is_empty(), "{faults:#?}");
    page.screenshot("senamukha-analysis").await;
    // Analysis off: ludus answers.
    page.click("#analysis").await;
    page.idle_after(2, "ludus's move after analysis").await;
    assert_eq!(
        page.eval("document.getElementById('analysis-panel').hidden")
            .await,
        json!(true)
    );
    page.close().await;

    let page = Browser::open("mentula").await;
    page.click("#analysis").await;
    page.wait_for(
        "document.querySelectorAll('[role=meter][aria-label^=\"evaluation \"]').length === 4 && document.querySelectorAll('#analysis-lines li').length >= 1 && document.querySelector('#board polyline.arrow.best')",
        "Mentula's four meters",
    )
    .await;
    page.close().await;

    let page = Browser::open("mangala").await;
    page.click("#analysis").await;
    page.wait_for(
        "document.querySelector('#board circle.ring.best') && document.querySelectorAll('#analysis-lines li').length === 3",
        "Mangala's best pit ringed",
    )
    .await;
    page.close().await;
}

/// A Mangala II pass is announced as it happens, and the list shows it at once
/// (issue 58).
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_mangala_pass_is_announced_when_it_happens() {
    let page = Browser::open("mangala").await;
    page.set_seat(1, "person").await;
    page.set_position("2,0,0,0,0,0/0,0,0,0,0,0 S 35 35").await;
    page.click("#pit-A").await;
    page.idle_after(1, "A sown").await;
    assert_eq!(page.move_list().await, "1. A -");
    let message = page.message().await;
    assert!(
        message.contains("north cannot move and passes"),
        "{message}"
    );
    page.close().await;
}

/// A Mangala II sowing is drawn counter by counter (issue 58): the counts shown start
/// from the pits' counts once the counters are taken up, and each pit of the path
/// gains its counter in the path's order, its `+n` showing as it lands; at rest every
/// count is the position's again and the moving counter is gone.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_mangala_sowing_is_drawn_counter_by_counter() {
    let page = Browser::open("mangala").await;
    page.set_seat(1, "person").await;
    page.idle_after(0, "the seat set").await;
    // Every change of a pit's count, as the page writes it, in order.
    page.eval(
        "(() => { window.counts = []; new MutationObserver((changes) => { for (const c of changes) { const pit = c.target.closest && c.target.closest('.pit, .sown'); if (pit && c.target.tagName === 'text') window.counts.push([pit.id || 'badge-' + pit.dataset.pit, c.target.textContent]); } }).observe(document.getElementById('board'), { subtree: true, childList: true }); return true; })()",
    )
    .await;
    page.click("#pit-C").await;
    page.idle_after(1, "C sown").await;
    page.wait_for(
        "document.querySelector('#board .counter') !== null || window.counts.length > 0",
        "the sowing under way",
    )
    .await;
    page.at_rest().await;
    page.wait_for(
        "document.querySelector('#board .counter') === null",
        "the counter gone",
    )
    .await;
    let counts: Vec<(String, String)> =
        serde_json::from_value(page.eval("window.counts").await).unwrap();
    // The six counters of C fall in D, E, F, then North's a, b, c, one by one: each
    // pit shows 6 first, then 7 as its counter lands, in the path's order.
    let landed: Vec<&str> = counts
        .iter()
        .filter(|(id, shown)| id.starts_with("pit-") && shown == "7")
        .map(|(id, _)| id.as_str())
        .collect();
    assert_eq!(
        &landed[..6],
        ["pit-D", "pit-E", "pit-F", "pit-a", "pit-b", "pit-c"],
        "{counts:?}"
    );
    let first_d = counts.iter().position(|(id, _)| id == "pit-D").unwrap();
    assert_eq!(
        counts[first_d].1, "6",
        "D shows its count before the sowing first"
    );
    assert!(
        counts
            .iter()
            .any(|(id, shown)| id == "badge-a" && shown == "+1")
    );
    let shown_is_kept = page
        .eval("[...document.querySelectorAll('#board .pit')].every((p) => p.querySelector('text').textContent === p.dataset.count)")
        .await;
    assert_eq!(shown_is_kept, json!(true));
    page.close().await;
}

/// The marks of a chosen man (issue 58): the square framed (not the last move's
/// yellow), quiet targets as dots, captures as rings; a promotion offers the pieces
/// drawn, and goes when another man is chosen.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn targets_are_dots_and_rings_and_promotions_show_their_pieces() {
    let page = Browser::open("senamukha").await;
    page.set_seat(1, "person").await;
    // A white knight on e5 can take the pawn on d7 or go to quiet squares; the pawn on
    // e10 promotes on e11.
    page.set_position("k10/4P6/11/11/3p7/11/4N6/11/11/11/10K w - - 0 1")
        .await;
    page.click_square("e5").await;
    page.wait_for("document.querySelector('#marks .chosen')", "the marks")
        .await;
    let marks = page
        .eval("[document.querySelector('#marks circle.capture[data-square=d7]') !== null, document.querySelector('#marks circle.quiet[data-square=f7]') !== null, document.querySelector('#marks circle.quiet[data-square=d7]') === null, getComputedStyle(document.getElementById('sq-e5')).fill]")
        .await;
    assert_eq!(marks[0], json!(true), "{marks}");
    assert_eq!(marks[1], json!(true), "{marks}");
    assert_eq!(marks[2], json!(true), "{marks}");
    assert_ne!(
        marks[3],
        json!("rgb(246, 224, 94)"),
        "the chosen square is not yellow"
    );
    page.click_square("e10").await;
    page.click_square("e11").await;
    page.wait_for(
        "!document.getElementById('choice').hidden && [...document.querySelectorAll('#choice button svg.piece')].filter((p) => p.querySelector('path, circle, rect, ellipse')).length === 3",
        "the promotion pieces drawn",
    )
    .await;
    let labels = page
        .eval("[...document.querySelectorAll('#choice button')].map((b) => b.getAttribute('aria-label')).sort().join(' ')")
        .await;
    assert_eq!(labels.as_str().unwrap().split(' ').count(), 3, "{labels}");
    page.screenshot("senamukha-promotion").await;
    // Another man chosen: the choice goes, and nothing is promoted.
    page.click_square("e5").await;
    page.wait_for(
        "document.getElementById('choice').hidden",
        "the choice gone",
    )
    .await;
    assert_eq!(page.moves().await, 0);
    page.close().await;
}

/// The layout (issue 58): the move list follows the move shown; on a phone the step
/// buttons and the move list come right under the board, in the first screen; the
/// board turns for a person playing the second side; four clocks keep one row; a
/// result does not move the side panel.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn the_layout_follows_the_game_on_a_desk_and_on_a_phone() {
    let page = Browser::open("senamukha").await;
    page.set_seat(1, "person").await;
    let record = data("senamukha/game1.txt");
    let plies = plies_of::<senamukha::Position>(&record);
    page.replay_record(&record, plies).await;
    let inside = "(() => { const list = document.getElementById('moves').getBoundingClientRect(); const m = document.querySelector('#moves .move.current').getBoundingClientRect(); return m.top >= list.top - 1 && m.bottom <= list.bottom + 1; })()";
    page.key("End").await;
    page.wait_for(
        &format!("document.querySelector('#moves .move.current[data-ply=\"{plies}\"]')"),
        "the end",
    )
    .await;
    assert_eq!(
        page.eval(inside).await,
        json!(true),
        "the last move is in view"
    );
    page.key("Home").await;
    page.key("ArrowRight").await;
    page.wait_for(
        "document.querySelector('#moves .move.current[data-ply=\"1\"]')",
        "the first move",
    )
    .await;
    assert_eq!(
        page.eval(inside).await,
        json!(true),
        "the first move is in view"
    );
    // The side panel stays where it is when a result appears.
    let left = "document.querySelector('aside').getBoundingClientRect().left";
    let before = page.eval(left).await;
    page.key("End").await;
    page.result().await;
    assert_eq!(page.eval(left).await, before);
    // A phone: the step buttons and the moves in the first screen.
    page.client.set_window_size(390, 844).await.unwrap();
    page.wait_for("window.innerWidth <= 390", "the phone-sized window")
        .await;
    let first_screen = page
        .eval("['board-row', 'stepper', 'moves'].map((id) => { const r = document.getElementById(id).getBoundingClientRect(); return [id, r.top >= 0 && r.top < window.innerHeight && r.right <= window.innerWidth + 1]; })")
        .await;
    assert_eq!(
        first_screen,
        json!([["board-row", true], ["stepper", true], ["moves", true]])
    );
    page.screenshot("senamukha-phone-game").await;
    page.close().await;
    // Playing the second side, the board turns.
    let page = Browser::open("mangala").await;
    page.set_seat(0, "depth 1").await;
    page.set_seat(1, "person").await;
    page.wait_for(
        "document.getElementById('board').classList.contains('flipped')",
        "the board turned",
    )
    .await;
    page.client.set_window_size(390, 844).await.unwrap();
    page.wait_for("window.innerWidth <= 390", "the phone-sized window")
        .await;
    page.screenshot("mangala-phone").await;
    page.close().await;
    // Four clocks, one row.
    let page = Browser::open("mentula").await;
    set_clock(&page, "5+3").await;
    let tops = page
        .eval("[...document.querySelectorAll('#clocks .clock')].map((c) => Math.round(c.getBoundingClientRect().top))")
        .await;
    let tops: Vec<i64> = serde_json::from_value(tops).unwrap();
    assert_eq!(tops.len(), 4);
    assert!(tops.iter().all(|&t| t == tops[0]), "{tops:?}");
    page.client.set_window_size(390, 844).await.unwrap();
    page.wait_for("window.innerWidth <= 390", "the phone-sized window")
        .await;
    let tops = page
        .eval("[...document.querySelectorAll('#clocks .clock')].map((c) => Math.round(c.getBoundingClientRect().top))")
        .await;
    let tops: Vec<i64> = serde_json::from_value(tops).unwrap();
    assert!(tops.iter().all(|&t| t == tops[0]), "on a phone: {tops:?}");
    // Each time whole, in its clock.
    let whole = page
        .eval("[...document.querySelectorAll('#clocks .clock')].every((c) => { const t = c.querySelector('time').getBoundingClientRect(); const r = c.getBoundingClientRect(); return t.width > 10 && t.right <= r.right + 1; })")
        .await;
    assert_eq!(whole, json!(true));
    page.screenshot("mentula-phone").await;
    page.close().await;
}

/// A newcomer's help (issue 58): each game's "how to play" from `describe`, the
/// notation in use named, and the full rules served by the page.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn each_game_explains_how_to_play_and_links_its_rules() {
    for &game in ludus::games::NAMES {
        let page = Browser::open(game).await;
        page.click("#how-to-play summary").await;
        let sentences = page
            .eval("document.querySelectorAll('#howto-list li').length")
            .await;
        assert!(sentences.as_u64().unwrap() >= 4, "{game}: {sentences}");
        let notation = page.text("#howto-notation").await;
        let chosen = page
            .eval("document.getElementById('notation').selectedOptions[0].text")
            .await;
        assert_eq!(json!(notation), chosen, "{game}");
        let link = page
            .eval("document.getElementById('rules-link').href")
            .await;
        let (status, rules) = page
            .server
            .get(&format!("/rules/{game}"), &page.server.address.to_string());
        assert_eq!(status, 200, "{game}");
        assert!(
            rules.contains("the rules ludus plays"),
            "{game}: {}",
            &rules[..80]
        );
        assert!(
            link.as_str().unwrap().ends_with(&format!("/rules/{game}")),
            "{link}"
        );
        page.close().await;
    }
}

/// Dragging gives feedback as it goes (issue 58): the targets show at the press, the
/// man follows the pointer, a drop on a target plays, a drop elsewhere puts it back.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_dragged_man_shows_its_targets_and_follows_the_pointer() {
    let page = Browser::open("senamukha").await;
    page.set_seat(1, "person").await;
    let (x0, y0) = page.centre_of("i3").await;
    let (x1, y1) = page.centre_of("h5").await;
    let (xm, ym) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let press = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x: x0,
            y: y0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(50)),
            x: xm,
            y: ym,
        });
    page.client.perform_actions(press).await.unwrap();
    page.wait_for(
        "document.querySelector('#marks circle.quiet[data-square=h5]') && document.querySelector('#board .man.dragging[data-square=i3]')",
        "the targets and the man under the pointer",
    )
    .await;
    let moved = page
        .eval("document.querySelector('#board .man.dragging').getAttribute('transform')")
        .await;
    assert!(moved.as_str().unwrap().starts_with("translate("), "{moved}");
    // Let go on a square it cannot reach: back on i3, still chosen.
    let (xb, yb) = page.centre_of("f6").await;
    let drop = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(50)),
            x: xb,
            y: yb,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    page.client.perform_actions(drop).await.unwrap();
    page.wait_for("!document.querySelector('#board .man.dragging') && document.getElementById('message').textContent.includes('not a legal move')", "the man put back").await;
    assert_eq!(page.moves().await, 0);
    assert_eq!(page.eval("state.selected").await, json!("i3"));
    page.press_and_release("i3", "h5").await;
    page.idle_after(1, "the drop on h5").await;
    assert_eq!(
        page.eval("document.querySelector('#moves .move').dataset.move")
            .await,
        json!("i3h5")
    );
    page.close().await;
}

/// In Mentula a player who runs out of time or resigns leaves the game and the others
/// play on (issue 58; rules M11): its men are taken off, the move list writes `T` or
/// `R` in its turn, a leave is not taken back, a reload keeps it, and the last player
/// left wins with the ranking the engine gives.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_mentula_player_who_flags_or_resigns_leaves_and_the_others_play_on() {
    let page = Browser::open("mentula").await;
    for seat in 1..4 {
        page.set_seat(seat, "person").await;
    }
    let men_of = |player: &str| format!("document.querySelectorAll('#board .man.{player}').length");
    set_clock(&page, "0.03+0").await;
    let mv = page.eval("state.legal[0]").await;
    type_move(&page, mv.as_str().unwrap()).await;
    // Yellow's 1.8 seconds run out: it leaves, the game goes on with Red to move.
    page.idle_after(2, "yellow's leave").await;
    let said = page.message().await;
    let struck = page
        .eval("document.querySelectorAll('#clocks .clock')[1].classList.contains('left')")
        .await;
    // Red's clock runs meanwhile: the rest is checked without clocks.
    type_clock(&page, "none").await;
    page.wait_for(
        "document.body.dataset.state === 'idle' && document.getElementById('message').textContent === 'no clocks'",
        "the clocks off",
    )
    .await;
    assert!(
        said.starts_with("yellow ran out of time and leaves the game"),
        "{said}"
    );
    assert_eq!(struck, json!(true));
    assert_eq!(page.eval(&men_of("yellow")).await, json!(0));
    assert_eq!(page.eval(&men_of("red")).await, json!(4));
    assert_eq!(page.eval("state.moves[1]").await, json!("T"));
    assert_eq!(
        page.eval(
            "document.querySelector('#moves .move[data-ply=\"2\"]').getAttribute('aria-label')"
        )
        .await,
        json!("1. yellow ran out of time and left the game")
    );
    assert_eq!(
        page.eval("document.getElementById('result').hidden").await,
        json!(true)
    );
    assert_eq!(page.eval("state.mover").await, json!(2));
    // Red, Magenta and White move (Yellow's turn is passed over); then Red resigns on
    // its turn: it leaves too, and Magenta moves next.
    for moves in 3..=5 {
        let mv = page.eval("state.legal[0]").await;
        type_move(&page, mv.as_str().unwrap()).await;
        page.idle_after(moves, "a move").await;
    }
    assert_eq!(page.eval("state.mover").await, json!(2));
    assert_eq!(
        page.eval("!document.getElementById('resign').hidden && !document.getElementById('resign').disabled").await,
        json!(true)
    );
    page.click("#resign").await;
    page.idle_after(6, "red's leave").await;
    assert!(
        page.message()
            .await
            .starts_with("red resigned and leaves the game")
    );
    assert_eq!(page.eval(&men_of("red")).await, json!(0));
    assert_eq!(page.eval("state.mover").await, json!(3));
    assert_eq!(
        page.eval("document.getElementById('offer-draw').hidden")
            .await,
        json!(true)
    );
    // A leave is not taken back.
    page.click("#undo").await;
    page.wait_for(
        "document.getElementById('message').textContent.startsWith('red left the game')",
        "no take-back of a leave",
    )
    .await;
    assert_eq!(page.moves().await, 6);
    // A reload keeps who left.
    page.reload_and_wait().await;
    assert_eq!(page.eval("state.moves[1]").await, json!("T"));
    assert_eq!(page.eval("state.moves[5]").await, json!("R"));
    assert_eq!(page.eval(&men_of("red")).await, json!(0));
    page.screenshot("mentula-left").await;
    // Magenta resigns as well: White, the last player left, wins.
    page.click("#resign").await;
    assert_eq!(
        page.result().await,
        json!(
            "Game over: white wins (one player left; white 64, yellow 0, red 0, magenta 0; ranking white > yellow = red = magenta)"
        )
    );
    page.close().await;
}

/// Moves slide (issue 58): after a click-click move and ludus's reply, the man that
/// moved was animated from where it stood; a step back through the game is not a move.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn moves_slide_and_a_step_back_does_not() {
    let page = Browser::open("senamukha").await;
    page.set_seat(1, "depth 1").await;
    page.click_square("i3").await;
    page.click_square("h5").await;
    page.idle_after(2, "ludus's reply").await;
    let black = page.eval("state.moves[1]").await;
    let black = black.as_str().unwrap();
    let (from, to) = split_coordinates(black);
    assert_eq!(
        page.eval(&format!(
            "document.querySelector('#board .man[data-square=\"{to}\"]').dataset.slidFrom"
        ))
        .await,
        json!(from),
        "ludus's man slid"
    );
    page.press_and_release("e4", "e5").await;
    page.idle_after(4, "the drop and the reply").await;
    page.click("#back").await;
    page.wait_for("document.querySelector('#moves .move.current[data-ply=\"3\"]') && document.body.dataset.state === 'idle'", "the drop shown").await;
    assert!(
        page.eval("document.querySelector('#board .man[data-square=\"e5\"]').dataset.slidFrom")
            .await
            .is_null(),
        "a step back slides nothing"
    );
    page.close().await;
}

/// The dark theme (issue 58): when the system asks for it, the page is dark and still
/// passes axe-core (contrast among its checks), in every game.
#[tokio::test]
#[ignore = "needs chromium, chromium-driver and tests/axe; .ci/run runs it"]
async fn the_dark_theme_follows_the_system_and_keeps_its_contrast() {
    for &game in ludus::games::NAMES {
        let page = Browser::open_in(game, &[], &["--force-dark-mode"]).await;
        assert_eq!(
            page.eval("matchMedia('(prefers-color-scheme: dark)').matches")
                .await,
            json!(true)
        );
        let background = page
            .eval("getComputedStyle(document.documentElement).backgroundColor")
            .await;
        assert_eq!(background, json!("rgb(28, 24, 20)"), "{game}");
        set_clock(&page, "5+3").await;
        page.click("#how-to-play summary").await;
        let faults = accessibility_faults(&page).await;
        assert!(faults.is_empty(), "{game}: {faults:#?}");
        if game == "senamukha" {
            page.screenshot("senamukha-dark").await;
        }
        page.close().await;
    }
}

/// Sounds (issue 58): off at first; on, a move, a capture, a check and the end each
/// make theirs (the page says which it made last).
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn sounds_tell_a_move_a_capture_a_check_and_the_end() {
    let page = Browser::open("senamukha").await;
    let pressed = "document.getElementById('sound').getAttribute('aria-pressed')";
    assert_eq!(page.eval(pressed).await, json!("false"));
    page.click("#sound").await;
    assert_eq!(page.eval(pressed).await, json!("true"));
    page.set_seat(1, "person").await;
    page.set_position("k10/11/1r9/11/11/11/11/11/11/11/1R8K w - - 0 1")
        .await;
    let sound = "document.body.dataset.sound";
    for (ply, mv, made) in [
        (1, "b1b2", "move"),
        (2, "a11a10", "move"),
        (3, "b2b9", "capture"),
        (4, "a10a11", "move"),
        (5, "b9a9", "check"),
    ] {
        type_move(&page, mv).await;
        page.idle_after(ply, mv).await;
        assert_eq!(page.eval(sound).await, json!(made), "{mv}");
    }
    page.close().await;
    // The end of a game.
    let page = Browser::open("mangala").await;
    page.click("#sound").await;
    page.set_position("0,0,0,0,0,1/1,0,0,0,0,0 S 35 35").await;
    page.click("#pit-F").await;
    page.result().await;
    assert_eq!(page.eval("document.body.dataset.sound").await, json!("end"));
    page.close().await;
}

/// Premoves (issue 58): while ludus thinks, a person chooses their next move; it is
/// played at their turn, and ludus answers it; an illegal one is dropped with a message.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_premove_is_played_at_the_persons_turn() {
    let page = Browser::open("senamukha").await;
    page.set_seat(1, "movetime 3000").await;
    type_move(&page, "e4e5").await;
    page.wait_for("state.thinking", "ludus thinking").await;
    page.click_square("i3").await;
    page.click_square("h5").await;
    page.wait_for(
        "document.getElementById('message').textContent.startsWith('premove i3 to h5') && document.querySelectorAll('#marks .premove').length === 2",
        "the premove marked",
    )
    .await;
    page.idle_after(4, "the premove played and answered").await;
    assert_eq!(page.eval("state.moves[2]").await, json!("i3h5"));
    // A premove that the reply makes illegal (onto a square of its own man) is dropped.
    page.wait_for(
        "!state.thinking && document.body.dataset.state === 'idle'",
        "idle",
    )
    .await;
    type_move(&page, "g4g5").await;
    page.wait_for("state.thinking", "ludus thinking again")
        .await;
    page.click_square("h5").await;
    page.click_square("g3").await;
    page.wait_for(
        "document.getElementById('message').textContent.includes('not legal now')",
        "the illegal premove dropped",
    )
    .await;
    assert_eq!(page.moves().await, 6);
    page.close().await;
}
