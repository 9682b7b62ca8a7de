//! Keyword options reduced to plain data ([`Scalar`]) and checked, once for every function of
//! every game: the twin is `perfectplay/_kernel/options.py`, with the same rules, order and
//! messages.
//!
//! * Integers (`k`, `rows`, `threads`, `node_limit`, ...): an int or anything with `__index__`
//!   (numpy integers), never a bool; beyond the `i128` range they saturate (out of every range).
//! * `table_mb`: a real number (ints, floats, fractions, numpy numbers), never a bool, more than
//!   0 and at most [`MAX_TABLE_MB`].
//! * Flags (`moves`, `weak`, `progress`, `best`): a bool (numpy's too).
//! * The options of a call are checked in [`ORDER`], whatever order they were given in.

use crate::engine::batch::{Labelling, OnError};
use crate::engine::error::{Error, Result};
use crate::engine::random::Draws;
use std::borrow::Cow;

/// The largest transposition table a search may be given, in MiB.
pub const MAX_TABLE_MB: i128 = 4096;

/// Every option, in the order a call's options are checked.
pub const ORDER: [&str; 14] = [
    "width",
    "height",
    "weak",
    "moves",
    "best",
    "node_limit",
    "table_mb",
    "book",
    "threads",
    "errors",
    "progress",
    "seed",
    "plies",
    "ongoing",
];

/// A scalar argument as plain data, with the name of its Python type for messages.
#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    pub value: Value,
    pub type_name: Cow<'static, str>,
    /// How Python shows it (`str()`), for a real number or an int beyond `i128`.
    pub shown: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    None,
    Bool(bool),
    /// An int (or an object's `__index__`), saturated to the `i128` range.
    Int(i128),
    /// A real number that is not an int (`float()` of it).
    Real(f64),
    Text(String),
    Tuple(Vec<Scalar>),
    /// An object whose `__index__` failed.
    BadIndex,
    /// Anything else.
    Other,
}

impl Scalar {
    pub fn new(value: Value, type_name: impl Into<Cow<'static, str>>) -> Scalar {
        Scalar {
            value,
            type_name: type_name.into(),
            shown: None,
        }
    }

    #[cfg(test)]
    pub fn int(value: i128) -> Scalar {
        Scalar::new(Value::Int(value), "int")
    }

    fn is_none(&self) -> bool {
        self.value == Value::None
    }

    fn show(&self) -> String {
        match (&self.shown, &self.value) {
            (Some(shown), _) => shown.clone(),
            (None, Value::Int(value)) => value.to_string(),
            (None, Value::Real(value)) => value.to_string(),
            (None, _) => self.type_name.to_string(),
        }
    }
}

fn wrong_type<T>(message: String) -> Result<T> {
    Err(Error::WrongType(message))
}

/// An integer argument: an int or anything with `__index__`, never a bool.
pub fn int(value: &Scalar, name: &str) -> Result<i128> {
    match value.value {
        Value::Int(int) => Ok(int),
        _ => wrong_type(format!("{name} must be an int, not {}", value.type_name)),
    }
}

/// None, or an int named `name`.
pub fn optional_int(value: Option<&Scalar>, name: &str) -> Result<Option<i128>> {
    value
        .filter(|value| !value.is_none())
        .map(|value| int(value, name))
        .transpose()
}

/// A flag: a bool.
pub fn flag(value: &Scalar, name: &str) -> Result<bool> {
    match value.value {
        Value::Bool(flag) => Ok(flag),
        _ => wrong_type(format!(
            "argument '{name}': '{}' object is not a bool",
            value.type_name
        )),
    }
}

/// The checked options of a call (those it was not given keep their defaults).
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub width: Option<i128>,
    pub height: Option<i128>,
    pub weak: bool,
    pub moves: bool,
    pub best: bool,
    /// None: no limit.
    pub node_limit: Option<u64>,
    /// None: the game's default.
    pub table_bytes: Option<usize>,
    /// None: every CPU this process may use.
    pub threads: Option<usize>,
    pub errors: OnError,
    pub progress: bool,
    /// None: one drawn from the system.
    pub seed: Option<u64>,
    /// `(low, high)`; None: every number of plies.
    pub plies: Option<(i128, i128)>,
    /// Random play stops before a move that would end the game.
    pub ongoing: bool,
}

impl Default for Checked {
    fn default() -> Self {
        Checked {
            width: None,
            height: None,
            weak: false,
            moves: false,
            best: true,
            node_limit: None,
            table_bytes: None,
            threads: None,
            errors: OnError::Raise,
            progress: false,
            seed: None,
            plies: None,
            ongoing: false,
        }
    }
}

impl Checked {
    /// `threads=`, or every CPU this process may use.
    pub fn threads(&self) -> usize {
        self.threads.unwrap_or_else(crate::engine::pool::cpus)
    }

    /// How `batch_solve` runs: threads, node limit, move answers, bad rows.
    pub fn labelling(&self) -> Labelling {
        Labelling {
            threads: self.threads(),
            node_limit: self.node_limit,
            moves: self.moves,
            errors: self.errors,
        }
    }

    /// Checks the `given` options (names from [`ORDER`]; `book` is an object, read by its
    /// game) in [`ORDER`].
    pub fn read(given: &[(&str, Scalar)]) -> Result<Checked> {
        let mut checked = Checked::default();
        for name in ORDER {
            let Some((_, value)) = given.iter().find(|(given, _)| *given == name) else {
                continue;
            };
            match name {
                "width" => checked.width = optional_int(Some(value), name)?,
                "height" => checked.height = optional_int(Some(value), name)?,
                "weak" => checked.weak = flag(value, name)?,
                "moves" => checked.moves = flag(value, name)?,
                "best" => checked.best = flag(value, name)?,
                "progress" => checked.progress = flag(value, name)?,
                "node_limit" => checked.node_limit = node_limit(value)?,
                "table_mb" => checked.table_bytes = table_bytes(value)?,
                "threads" => checked.threads = threads(value)?,
                "errors" => checked.errors = errors(value)?,
                "seed" => checked.seed = seed(value)?,
                "plies" => checked.plies = plies(value)?,
                "ongoing" => checked.ongoing = flag(value, name)?,
                _ => {}
            }
        }
        Ok(checked)
    }
}

/// None or a positive integer; beyond `u64` it is no limit at all.
fn node_limit(value: &Scalar) -> Result<Option<u64>> {
    match value.value {
        Value::None => Ok(None),
        Value::Int(limit @ 1..) => Ok(Some(u64::try_from(limit).unwrap_or(u64::MAX))),
        Value::Int(limit) => Err(Error::Malformed(format!(
            "node_limit must be positive, got {limit}"
        ))),
        Value::BadIndex => int(value, "node_limit").map(|_| None),
        _ => wrong_type(format!(
            "node_limit must be an int or None, not {}",
            value.type_name
        )),
    }
}

/// None or a number of MiB in (0, [`MAX_TABLE_MB`]], in bytes.
fn table_bytes(value: &Scalar) -> Result<Option<usize>> {
    let megabytes = match value.value {
        Value::None => return Ok(None),
        Value::Int(int) if (1..=MAX_TABLE_MB).contains(&int) => int as f64,
        Value::Real(real) if real > 0.0 && real <= MAX_TABLE_MB as f64 => real,
        Value::Int(_) | Value::Real(_) => {
            return Err(Error::Malformed(format!(
                "table_mb must be more than 0 and at most {MAX_TABLE_MB}, got {}",
                value.show()
            )));
        }
        _ => {
            return wrong_type(format!(
                "table_mb must be a number of MiB, not {}",
                value.type_name
            ));
        }
    };
    Ok(Some((megabytes * (1u64 << 20) as f64) as usize))
}

/// None or a number of threads, 1 to 4096.
fn threads(value: &Scalar) -> Result<Option<usize>> {
    match optional_int(Some(value), "threads")? {
        None => Ok(None),
        Some(count @ 1..=4096) => Ok(Some(count as usize)),
        Some(count) => Err(Error::Malformed(format!(
            "threads must be between 1 and 4096, got {count}"
        ))),
    }
}

/// None (raise), `'raise'` or `'mask'`.
fn errors(value: &Scalar) -> Result<OnError> {
    match &value.value {
        Value::None => Ok(OnError::Raise),
        Value::Text(text) if text == "raise" => Ok(OnError::Raise),
        Value::Text(text) if text == "mask" => Ok(OnError::Mask),
        Value::Text(text) => Err(Error::Malformed(format!(
            "errors must be 'raise' or 'mask', got \"{text}\""
        ))),
        _ => wrong_type(format!(
            "errors must be 'raise' or 'mask', not {}",
            value.type_name
        )),
    }
}

/// None or a seed, 0 to 2^64 - 1.
fn seed(value: &Scalar) -> Result<Option<u64>> {
    match optional_int(Some(value), "seed")? {
        None => Ok(None),
        Some(seed) => u64::try_from(seed).map(Some).map_err(|_| {
            Error::Malformed(format!("seed must be between 0 and 2^64 - 1, got {seed}"))
        }),
    }
}

/// None, an int or a `(low, high)` pair (their range is checked by [`Checked::draws`]).
fn plies(value: &Scalar) -> Result<Option<(i128, i128)>> {
    match &value.value {
        Value::None => Ok(None),
        Value::Tuple(pair) if pair.len() == 2 => {
            Ok(Some((int(&pair[0], "plies")?, int(&pair[1], "plies")?)))
        }
        Value::Tuple(items) => Err(Error::Malformed(format!(
            "plies must be an int or a (low, high) pair, got a tuple of {}",
            items.len()
        ))),
        _ => {
            let plies = int(value, "plies")?;
            Ok(Some((plies, plies)))
        }
    }
}

impl Checked {
    /// What `random_positions` draws: `n` rows of at most `most` plies each (`seed` None:
    /// one drawn from the system).
    pub fn draws(&self, n: &Scalar, most: u32) -> Result<Draws> {
        let count = match int(n, "n")? {
            count @ 0..=0xff_ffff_ffff => count as usize,
            count => return malformed(format!("n must be between 0 and 2^40, got {count}")),
        };
        let seed = self.seed.unwrap_or_else(|| {
            use std::hash::{BuildHasher, RandomState};
            RandomState::new().hash_one(std::time::SystemTime::now())
        });
        let (low, high) = self.plies.unwrap_or((0, i128::from(most)));
        if !(0 <= low && low <= high && high <= i128::from(most)) {
            return malformed(format!(
                "plies must lie in 0..{most} with low <= high, got ({low}, {high})"
            ));
        }
        Ok(Draws {
            count,
            seed,
            low: low as u32,
            high: high as u32,
        })
    }
}

fn malformed<T>(message: String) -> Result<T> {
    Err(Error::Malformed(message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_checked_in_order_whatever_their_order_given() {
        let given = [
            ("threads", Scalar::int(0)),
            ("node_limit", Scalar::new(Value::Bool(true), "bool")),
        ];
        assert_eq!(
            Checked::read(&given),
            Err(Error::WrongType(
                "node_limit must be an int or None, not bool".into()
            ))
        );
    }

    #[test]
    fn table_mb_takes_reals_in_range() {
        let read = |value: Value| Checked::read(&[("table_mb", Scalar::new(value, "float"))]);
        assert_eq!(read(Value::Real(0.5)).unwrap().table_bytes, Some(1 << 19));
        assert!(matches!(
            read(Value::Real(f64::NAN)),
            Err(Error::Malformed(_))
        ));
        assert!(matches!(read(Value::Int(0)), Err(Error::Malformed(_))));
        assert!(matches!(read(Value::Other), Err(Error::WrongType(_))));
    }
}
