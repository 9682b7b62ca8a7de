//! Files the core reads itself: only regular files (a FIFO would block forever, a device reads
//! as endless data), opened without blocking and checked on the open descriptor, so nothing
//! can swap the file between the check and the read; read in one piece, into memory asked for
//! fallibly, never more than the caller allows.

use crate::engine::memory::{OutOfMemory, with_room};
use std::fs::{File, OpenOptions};
use std::io::{self, Read};

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadFailure {
    Missing,
    /// Not a regular file: what it is ("a FIFO", "a directory", ...).
    NotRegular(&'static str),
    Unreadable(io::Error),
    OutOfMemory(OutOfMemory),
}

/// The bytes of the regular file at `path`, at most `most` of them.
pub fn read_regular(path: &str, most: usize) -> Result<Vec<u8>, ReadFailure> {
    let file = open_without_blocking(path).map_err(|error| match error.kind() {
        io::ErrorKind::NotFound => ReadFailure::Missing,
        _ => ReadFailure::Unreadable(error),
    })?;
    let kind = file
        .metadata()
        .map_err(ReadFailure::Unreadable)?
        .file_type();
    if !kind.is_file() {
        return Err(ReadFailure::NotRegular(what_it_is(&kind)));
    }
    let mut data = with_room(most).map_err(ReadFailure::OutOfMemory)?;
    file.take(most as u64)
        .read_to_end(&mut data)
        .map_err(ReadFailure::Unreadable)?;
    Ok(data)
}

#[cfg(unix)]
fn open_without_blocking(path: &str) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_without_blocking(path: &str) -> io::Result<File> {
    OpenOptions::new().read(true).open(path)
}

#[cfg(unix)]
fn what_it_is(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn what_it_is(kind: &std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_regular_files_only_and_no_more_than_allowed() {
        let dir = std::env::temp_dir().join(format!("perfectplay-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.bin");
        std::fs::write(&path, b"0123456789").unwrap();
        let path = path.to_str().unwrap();
        assert_eq!(read_regular(path, 4).unwrap(), b"0123");
        assert_eq!(read_regular(path, 100).unwrap(), b"0123456789");
        let directory = dir.to_str().unwrap();
        assert!(matches!(
            read_regular(directory, 4),
            Err(ReadFailure::NotRegular("a directory"))
        ));
        let missing = dir.join("missing.bin");
        assert!(matches!(
            read_regular(missing.to_str().unwrap(), 4),
            Err(ReadFailure::Missing)
        ));
        #[cfg(unix)]
        assert!(matches!(
            read_regular("/dev/zero", 4),
            Err(ReadFailure::NotRegular("a device"))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
