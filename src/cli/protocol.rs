//! `ludus` without a command: the line protocol on standard input and output, in
//! whichever dialect the first request speaks (see [`ludus::protocol`]).

pub fn run() {
    ludus::protocol::serve(std::io::stdin(), std::io::stdout());
}
