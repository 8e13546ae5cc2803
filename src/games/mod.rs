//! The games ludus plays, one folder each.

pub mod mentula;
pub mod senamukha;
