//! Values as the transposition table keeps them. A mate score counts plies from the
//! root, but the same position recurs at other distances from it: the table stores
//! mate scores relative to the node instead, so they stay true wherever it recurs.

use crate::search::{MATE_BOUND, Value};

/// `value`, found at `ply` from the root, as the table stores it.
pub(super) fn to_tt(value: Value, ply: u32) -> Value {
    if value >= MATE_BOUND {
        value + ply as i32
    } else if value <= -MATE_BOUND {
        value - ply as i32
    } else {
        value
    }
}

/// A value stored by the table, as seen at `ply` from the root.
pub(super) fn from_tt(value: Value, ply: u32) -> Value {
    if value >= MATE_BOUND {
        value - ply as i32
    } else if value <= -MATE_BOUND {
        value + ply as i32
    } else {
        value
    }
}
