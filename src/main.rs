//! The `ludus` command line: everything is in [`ludus::cli`], shared with the Python
//! package, which runs the same command line in-process (adapters/python).

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(ludus::cli::main(std::env::args_os()))
}
