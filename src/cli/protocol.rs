//! `ludus` without a command: the line protocol on standard input and output, in
//! whichever dialect the first request speaks (see [`crate::protocol`]).

pub fn run() {
    crate::protocol::serve(std::io::stdin(), std::io::stdout());
}
