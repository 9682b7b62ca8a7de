//! One folder a game: its rules and parsing, its search, its plain reference search.

pub mod connect4;
pub mod footholds;
pub mod mnk;
pub mod tictactoe;
