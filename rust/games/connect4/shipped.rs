//! The books that ship for 7x6, read by the core itself, once a process: the 12-ply book of
//! `bitbully-databases`, perfectplay's 13-ply and 14-ply books and its depth-6 book. Python
//! only says where the files are and what each must be (its size and SHA-256, and the words
//! of the errors that name it): the data never passes through Python. The depth-6 book is
//! read first; the deep books only when a call needs them (not for one move's answers near the
//! start, which the depth-6 book gives whole). Each file is read in
//! one piece and refused, naming it, unless it is a regular file of its size and SHA-256; a
//! file of that hash is the one the tests walked whole, so its structure is only parsed, never
//! walked again. The 13-ply and 14-ply scores are read in place, in the bytes read.

use crate::engine::error::{Error, Result};
use crate::engine::files::{ReadFailure, read_regular};
use crate::engine::memory::{as_signed, with_room};
use crate::engine::perfect_hash::PerfectHash;
use crate::engine::pool::{self, Poll};
use crate::games::connect4::book::{Book, Books, DeepBook, Fourteen};
use sha2::{Digest, Sha256};

/// A shipped file as the caller names it.
pub struct ShippedFile {
    pub path: String,
    /// Its size, and its SHA-256 in lowercase hex.
    pub bytes: usize,
    pub sha256: String,
    /// How errors name it ("the 13-ply opening book PATH"), what its size means (appended to
    /// the size in a size error, may be empty), the fix they suggest, and the whole message
    /// when the hash differs.
    pub named: String,
    pub size_means: String,
    pub fix: String,
    pub not_ours: String,
}

/// The deep books' files, in the order they are read (the order the twin reads them in, so
/// that both backends name the same file first). The depth-6 book is read before them.
pub struct DeepFiles {
    pub deep: ShippedFile,
    pub next: ShippedFile,
    pub fourteen: ShippedFile,
}

/// The shipped depth-6 book, owned by the core.
pub struct ShippedOpening {
    keys: Vec<u64>,
    scores: Vec<i8>,
    depth: u32,
}

impl ShippedOpening {
    /// The stones of its deepest positions.
    pub fn depth(&self) -> u32 {
        self.depth
    }
}

/// The shipped 12-ply, 13-ply and 14-ply books, owned by the core.
pub struct ShippedDeep {
    codes: Vec<i32>,
    scores: Vec<i8>,
    next: Vec<u8>,
    fourteen: FourteenFile,
}

/// The 14-ply book's file and where its columns are in it.
struct FourteenFile {
    data: Vec<u8>,
    pilots: std::ops::Range<usize>,
    overflow_buckets: Vec<u32>,
    overflow_pilots: Vec<u16>,
    scores: std::ops::Range<usize>,
    slots: u32,
}

/// The books a search reads from the shipped files: the depth-6 book, and the deep books when
/// given.
pub fn shipped_books<'a>(opening: &'a ShippedOpening, deep: Option<&'a ShippedDeep>) -> Books<'a> {
    Books {
        opening: Some(Book {
            keys: &opening.keys,
            scores: &opening.scores,
            depth: opening.depth,
        }),
        deep: deep.map(|deep| {
            let fourteen = &deep.fourteen;
            DeepBook {
                codes: &deep.codes,
                scores: &deep.scores,
                next: Some(as_signed(&deep.next)),
                fourteen: Some(Fourteen {
                    hash: PerfectHash {
                        pilots: &fourteen.data[fourteen.pilots.clone()],
                        overflow_buckets: &fourteen.overflow_buckets,
                        overflow_pilots: &fourteen.overflow_pilots,
                        slots: fourteen.slots,
                    },
                    scores: as_signed(&fourteen.data[fourteen.scores.clone()]),
                }),
            }
        }),
    }
}

/// Reads and checks the shipped depth-6 book (see the module).
pub fn read_opening(file: &ShippedFile) -> Result<ShippedOpening> {
    let (keys, scores, depth) = opening_columns(file, &read_checked(file)?)?;
    Ok(ShippedOpening {
        keys,
        scores,
        depth,
    })
}

/// The deep books' files as the workers read them (each worker fills the ones it read).
#[derive(Default)]
struct DeepRead {
    twelve: Option<Result<(Vec<i32>, Vec<i8>)>>,
    thirteen: Option<Result<Vec<u8>>>,
    fourteen: Option<Result<FourteenFile>>,
}

impl DeepRead {
    fn read(&mut self, files: &DeepFiles, at: usize) {
        match at {
            0 => {
                let read = read_checked(&files.deep);
                self.twelve = Some(read.and_then(|data| deep_columns(&files.deep, &data)));
            }
            1 => self.thirteen = Some(read_checked(&files.next)),
            _ => {
                let read = read_checked(&files.fourteen);
                let parsed = read.and_then(|data| fourteen_columns(&files.fourteen, data));
                self.fourteen = Some(parsed);
            }
        }
    }
}

/// Reads and checks the shipped deep books (see the module): each file read, hashed and parsed
/// on a worker of its own (that is most of a fresh process's first deep answer), the first
/// refusal in file order reported.
pub fn read_deep(files: &DeepFiles) -> Result<ShippedDeep> {
    let work = |read: &mut DeepRead, at: usize, _: Poll| {
        read.read(files, at);
        1
    };
    let start = || Ok(DeepRead::default());
    let workers = pool::run(vec![0, 1, 2], 3, 3, start, work, |_, _| false)?;
    let mut all = DeepRead::default();
    for worker in workers {
        all.twelve = all.twelve.or(worker.twelve);
        all.thirteen = all.thirteen.or(worker.thirteen);
        all.fourteen = all.fourteen.or(worker.fourteen);
    }
    // Every piece runs (the calling thread is a worker); a file missing here is read now.
    for at in 0..3 {
        let missing = [
            all.twelve.is_none(),
            all.thirteen.is_none(),
            all.fourteen.is_none(),
        ];
        if missing[at] {
            all.read(files, at);
        }
    }
    let (Some(twelve), Some(thirteen), Some(fourteen)) = (all.twelve, all.thirteen, all.fourteen)
    else {
        return Err(Error::Malformed("the deep books were not all read".into()));
    };
    let ((codes, scores), next, fourteen) = (twelve?, thirteen?, fourteen?);
    if next.len() != 7 * codes.len() {
        return Err(bad(&files.next, "not seven scores for each 12-ply entry"));
    }
    Ok(ShippedDeep {
        codes,
        scores,
        next,
        fourteen,
    })
}

/// The file's bytes, checked: a regular file of its size and SHA-256.
fn read_checked(file: &ShippedFile) -> Result<Vec<u8>> {
    let data = read_regular(&file.path, file.bytes.saturating_add(1)).map_err(|failure| {
        let (named, fix) = (&file.named, &file.fix);
        match failure {
            ReadFailure::Missing => Error::Missing(format!("{named} is missing: {fix}")),
            ReadFailure::NotRegular(kind) => {
                Error::Malformed(format!("{named}: {kind}, not a regular file: {fix}"))
            }
            ReadFailure::Unreadable(error) => Error::Unreadable(format!("{named}: {error}")),
            ReadFailure::OutOfMemory(failure) => Error::OutOfMemory(failure),
        }
    })?;
    if data.len() != file.bytes {
        let more = if data.len() > file.bytes {
            " or more"
        } else {
            ""
        };
        return Err(Error::Malformed(format!(
            "{} is {} bytes{more}, not {}{}: {}",
            file.named,
            thousands(data.len()),
            thousands(file.bytes),
            file.size_means,
            file.fix
        )));
    }
    let hash: String = Sha256::digest(&data)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    if hash != file.sha256 {
        return Err(Error::Malformed(file.not_ours.clone()));
    }
    Ok(data)
}

fn bad(file: &ShippedFile, what: &str) -> Error {
    Error::Malformed(format!("{}: {what}: {}", file.named, file.fix))
}

/// `n` with commas between thousands, as Python's `f"{n:,}"` writes it.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut shown = String::new();
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at) % 3 == 0 {
            shown.push(',');
        }
        shown.push(digit);
    }
    shown
}

/// The 12-ply book's codes (big-endian i32) and Pons' scores from its distance bytes.
fn deep_columns(file: &ShippedFile, data: &[u8]) -> Result<(Vec<i32>, Vec<i8>)> {
    let entries = data.len() / 5;
    let (mut codes, mut scores) = (with_room(entries)?, with_room(entries)?);
    for (at, entry) in data.chunks_exact(5).enumerate() {
        let code = i32::from_be_bytes([entry[0], entry[1], entry[2], entry[3]]);
        if codes.last().is_some_and(|&last| last >= code) {
            return Err(bad(file, "the keys are not in increasing order"));
        }
        let value = entry[4] as i8;
        let Some(score) = deep_score(value) else {
            return Err(bad(
                file,
                &format!(
                    "entry {} holds {value}, a distance no game of 12 stones ends at",
                    thousands(at)
                ),
            ));
        };
        codes.push(code);
        scores.push(score);
    }
    Ok((codes, scores))
}

/// Pons' score of a 12-ply distance byte `v`: `v > 0`, the first player, to move, wins with
/// stone `12 + 100 - v`; `v < 0`, it loses to stone `12 + 100 - |v|`; 0 a draw. A win ends on
/// a stone of the winner's parity, after the 13th and by the 42nd; None for any other byte.
fn deep_score(value: i8) -> Option<i8> {
    let end = 12 + 100 - i32::from(value).abs();
    let pons = ((44 - end) / 2) as i8;
    match value {
        0 => Some(0),
        1.. if end % 2 == 1 && (15..=41).contains(&end) => Some(pons),
        ..0 if end % 2 == 0 && (14..=42).contains(&end) => Some(-pons),
        _ => None,
    }
}

/// The 14-ply book's header and columns: magic, version, stones, keys, buckets, overflow and
/// slots (`<8sIIQQQQ`), then the pilots, the overflow list's buckets (u32) and pilots (u16)
/// and a score a slot, little-endian.
fn fourteen_columns(file: &ShippedFile, data: Vec<u8>) -> Result<FourteenFile> {
    const HEADER: usize = 48;
    let not_one = || bad(file, "not a 14-ply book of this version");
    let field = |at: usize| -> Option<usize> {
        let bytes = data.get(at..at + 8)?;
        usize::try_from(u64::from_le_bytes(bytes.try_into().ok()?)).ok()
    };
    if data.get(..8) != Some(b"PPC4H14\n".as_slice()) {
        return Err(not_one());
    }
    let (Some(buckets), Some(overflow), Some(slots)) = (field(24), field(32), field(40)) else {
        return Err(not_one());
    };
    let pilots = HEADER..HEADER.checked_add(buckets).ok_or_else(not_one)?;
    let overflow_at = pilots.end;
    let scores_at = overflow_at
        .checked_add(overflow.checked_mul(6).ok_or_else(not_one)?)
        .ok_or_else(not_one)?;
    let scores = scores_at..scores_at.checked_add(slots).ok_or_else(not_one)?;
    let slots = u32::try_from(slots).map_err(|_| not_one())?;
    if scores.end != data.len() {
        return Err(not_one());
    }
    let words = |at: usize, width: usize| data[at..at + overflow * width].chunks_exact(width);
    let overflow_buckets = words(overflow_at, 4)
        .map(|word| u32::from_le_bytes([word[0], word[1], word[2], word[3]]))
        .collect();
    let overflow_pilots = words(overflow_at + 4 * overflow, 2)
        .map(|word| u16::from_le_bytes([word[0], word[1]]))
        .collect();
    Ok(FourteenFile {
        data,
        pilots,
        overflow_buckets,
        overflow_pilots,
        scores,
        slots,
    })
}

/// The depth-6 book's keys, scores and depth: magic, version, width, height, depth, a reserved
/// byte and the entries (`<8sIBBBBQ`), then the keys (u64) and the scores (i8), then a CRC32.
fn opening_columns(file: &ShippedFile, data: &[u8]) -> Result<(Vec<u64>, Vec<i8>, u32)> {
    const HEADER: usize = 24;
    let not_one = || bad(file, "not a 7x6 opening book of this version");
    if data.get(..8) != Some(b"PPC4BK\r\n".as_slice()) || data.get(12..14) != Some(&[7, 6]) {
        return Err(not_one());
    }
    let depth = u32::from(data[14]);
    let count = data
        .get(16..24)
        .and_then(|bytes| usize::try_from(u64::from_le_bytes(bytes.try_into().ok()?)).ok())
        .ok_or_else(not_one)?;
    if count.checked_mul(9).and_then(|n| n.checked_add(HEADER + 4)) != Some(data.len()) {
        return Err(not_one());
    }
    let keys = data[HEADER..HEADER + 8 * count]
        .chunks_exact(8)
        .map(|word| u64::from_le_bytes(word.try_into().unwrap_or_default()))
        .collect();
    let scores = as_signed(&data[HEADER + 8 * count..HEADER + 9 * count]).to_vec();
    Ok((keys, scores, depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_as_python_writes_them() {
        for (n, shown) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (29_406_293, "29,406,293"),
        ] {
            assert_eq!(thousands(n), shown);
        }
    }

    #[test]
    fn deep_scores_of_every_byte() {
        assert_eq!(deep_score(0), Some(0));
        // The first player wins with the 15th stone at the soonest: Pons' score 14.
        assert_eq!(deep_score(97), Some(14));
        assert_eq!(deep_score(71), Some(1)); // the 41st stone
        assert_eq!(deep_score(-70), Some(-1)); // lost to the 42nd stone
        assert_eq!(deep_score(98), None); // the 14th stone is the second player's
        assert_eq!(deep_score(1), None);
    }
}
