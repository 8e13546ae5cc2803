//! The network built into the binary: `senamukha.nnue` beside this file, made by the
//! recipe of protocol-spec/nnue.md ("Making a network"). `Use NNUE` evaluates with it
//! while `EvalFile` names no other.

use std::sync::{Arc, OnceLock};

use super::network::Network;

const BYTES: &[u8] = include_bytes!("senamukha.nnue");

/// The built-in network, read from the binary's bytes on first use.
pub fn network() -> Arc<Network> {
    static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
    NETWORK
        .get_or_init(|| {
            // The bytes are the build's own, checked by the test below: reading them
            // cannot fail in a binary whose tests passed.
            Arc::new(Network::from_bytes(BYTES).expect("the built-in network is valid"))
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// The built-in file passes every check a file from `EvalFile` gets (its magic,
    /// version, game, shape, length and checksum), and evaluates the start as even
    /// within a few centipawns, as the colour-reversed start is the same position.
    #[test]
    fn the_built_in_network_is_a_valid_sena_mukha_network() {
        let network = Network::from_bytes(BYTES).unwrap();
        assert!(super::super::network::hidden_size_is_valid(
            network.hidden()
        ));
        let start = crate::games::senamukha::Position::start();
        let score = network.evaluate(&start);
        assert!(score.abs() < 100, "{score}");
        // Written again, it reads back the same (a file of the older version 1 is
        // written as version 2, so the bytes themselves may differ in the header).
        assert_eq!(Network::from_bytes(&network.to_bytes()), Ok(network));
    }
}
