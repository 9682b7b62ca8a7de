//! The errors every core returns; the Python layer maps each variant to one exception class.

use crate::engine::budget::Stop;
use crate::engine::memory::OutOfMemory;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Input of the right type but the wrong shape or content (Python `ValueError`).
    Malformed(String),
    /// A file the core reads is not there (Python `FileNotFoundError`).
    Missing(String),
    /// A file the core reads could not be read (Python `OSError`).
    Unreadable(String),
    /// An argument of the wrong type altogether (Python `TypeError`).
    WrongType(String),
    /// A well-formed board that cannot arise in play (Python `perfectplay.IllegalPosition`).
    Illegal(String),
    /// The search stopped early (`SearchLimitExceeded` or the pending `KeyboardInterrupt`).
    Stopped(Stop),
    /// Memory for a table could not be had (Python `MemoryError`).
    OutOfMemory(OutOfMemory),
    /// A proof grew past the memory it may hold, in bytes (Python `MemoryError`).
    MemoryLimit(usize),
    /// A batch's row failed: its error, raised with the row named (the error's own class).
    InRow(usize, Box<Error>),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Malformed(message)
            | Error::Missing(message)
            | Error::Unreadable(message)
            | Error::WrongType(message)
            | Error::Illegal(message) => f.write_str(message),
            Error::Stopped(Stop::NodeLimit(limit)) => {
                write!(f, "search needed more than node_limit={limit} nodes")
            }
            Error::Stopped(Stop::Interrupted) => f.write_str("search interrupted"),
            Error::OutOfMemory(OutOfMemory { bytes }) => {
                write!(f, "not enough memory: cannot allocate {bytes} bytes")
            }
            Error::MemoryLimit(bytes) => {
                let held = match bytes >> 20 {
                    0 => format!("{bytes} bytes"),
                    mib => format!("{mib} MiB"),
                };
                write!(
                    f,
                    "the proof needed more than {held} of nodes and tables (table_mb; half this \
                     machine's memory when not given): give it a node_limit or a larger table_mb"
                )
            }
            Error::InRow(row, error) => write!(f, "row {row}: {error}"),
        }
    }
}

impl From<Stop> for Error {
    fn from(stop: Stop) -> Self {
        Error::Stopped(stop)
    }
}

impl From<OutOfMemory> for Error {
    fn from(failure: OutOfMemory) -> Self {
        Error::OutOfMemory(failure)
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// `Err(Error::Malformed(format!(...)))`
macro_rules! malformed {
    ($($arg:tt)*) => { Err($crate::engine::error::Error::Malformed(format!($($arg)*))) };
}
pub(crate) use malformed;
