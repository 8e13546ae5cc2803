//! The games ludus plays, one folder each.

pub mod senamukha;
