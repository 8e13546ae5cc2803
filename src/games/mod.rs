//! The games ludus plays, one folder each.

pub mod mangala;
pub mod mentula;
pub mod senamukha;
