//! The file of one layer: a 64-byte header (what the file is, and a checksum of everything in
//! it), then one signed byte per position: its value.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `MANCALTB` |
//! | 8 | 4 | format version (little-endian) |
//! | 12 | 16 | game name, zero-padded (`mangala-ii`, …) |
//! | 28 | 4 | pits on the board |
//! | 32 | 4 | counters on the board (the layer) |
//! | 36 | 4 | holder states (3 in Anywoli: nobody, the mover, the opponent; else 1) |
//! | 40 | 8 | positions (values) in the file |
//! | 48 | 8 | checksum of bytes 0..48 and of the values |
//! | 56 | 8 | zero |
//! | 64 | … | the values |

use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use mancala_rules::Variant;

pub const MAGIC: &[u8; 8] = b"MANCALTB";
pub const FORMAT_VERSION: u32 = 1;
pub const HEADER_BYTES: usize = 64;

/// What a layer file says it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub variant: Variant,
    pub pits: u32,
    pub counters: u32,
    pub states: u32,
    pub positions: u64,
    /// A fingerprint of the rules of a game loaded from a file (0 for a built-in game), so that
    /// tables of an earlier version of the file are not taken for this one's.
    pub rules: u64,
}

/// The fingerprint of a game's rules for [`Header::rules`]: 0 for a built-in game, else a hash
/// of its whole game file.
pub fn rules_fingerprint(variant: Variant) -> u64 {
    if variant.is_built_in() {
        return 0;
    }
    let text = mancala_rules::definition::write(variant.rules());
    checksum(&[text.as_bytes()]) | 1
}

/// Why a layer file cannot be used.
#[derive(Debug)]
pub enum FileError {
    Missing(PathBuf),
    Io(PathBuf, std::io::Error),
    /// Not a tablebase file, or one of another format version.
    NotATable(PathBuf, String),
    /// A table, but not the one expected here.
    Mismatch(PathBuf, String),
    /// The checksum does not match: the file is damaged.
    Damaged(PathBuf),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Missing(path) => write!(f, "{} is missing", path.display()),
            FileError::Io(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            FileError::NotATable(path, why) => {
                write!(f, "{} is not a tablebase file ({why})", path.display())
            }
            FileError::Mismatch(path, why) => write!(f, "{} {why}", path.display()),
            FileError::Damaged(path) => write!(
                f,
                "{} is damaged (its checksum does not match); build it again",
                path.display()
            ),
        }
    }
}

impl std::error::Error for FileError {}

/// The file name of a layer: `mangala-ii-12.mtb`.
pub fn layer_path(dir: &Path, variant: Variant, counters: u32) -> PathBuf {
    dir.join(format!("{variant}-{counters:02}.mtb"))
}

/// A 64-bit checksum, eight bytes at a time (any changed byte changes it, with near certainty).
pub fn checksum(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0x243F_6A88_85A3_08D3;
    let mut mix = |word: u64| {
        hash = (hash.rotate_left(23) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    };
    for part in parts {
        let mut chunks = part.chunks_exact(8);
        for chunk in &mut chunks {
            mix(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        mix(u64::from_le_bytes(last) ^ (rest.len() as u64) << 56);
        mix(part.len() as u64);
    }
    hash ^ hash >> 29
}

fn header_bytes(header: &Header) -> [u8; 48] {
    let mut bytes = [0u8; 48];
    bytes[..8].copy_from_slice(MAGIC);
    bytes[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    // The name's first 16 bytes (a longer name of a loaded game is told apart by its rules'
    // fingerprint).
    let name = header.variant.name().as_bytes();
    let name = &name[..name.len().min(16)];
    bytes[12..12 + name.len()].copy_from_slice(name);
    bytes[28..32].copy_from_slice(&header.pits.to_le_bytes());
    bytes[32..36].copy_from_slice(&header.counters.to_le_bytes());
    bytes[36..40].copy_from_slice(&header.states.to_le_bytes());
    bytes[40..48].copy_from_slice(&header.positions.to_le_bytes());
    bytes
}

/// Writes a layer to `path` through a temporary file renamed at the end, so that a file with the
/// layer's name is always whole.
pub fn write_layer(path: &Path, header: &Header, values: &[i8]) -> Result<(), FileError> {
    let io = |e| FileError::Io(path.to_path_buf(), e);
    // SAFETY: i8 and u8 have the same size and alignment, and every bit pattern is valid.
    let data: &[u8] = unsafe { std::slice::from_raw_parts(values.as_ptr().cast(), values.len()) };
    let head = header_bytes(header);
    let sum = checksum(&[&head, data]);
    let temporary = path.with_extension("mtb.partial");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&temporary).map_err(io)?);
    file.write_all(&head).map_err(io)?;
    file.write_all(&sum.to_le_bytes()).map_err(io)?;
    file.write_all(&header.rules.to_le_bytes()).map_err(io)?;
    file.write_all(data).map_err(io)?;
    file.into_inner()
        .map_err(|e| io(e.into_error()))?
        .sync_all()
        .map_err(io)?;
    std::fs::rename(&temporary, path).map_err(io)
}

/// Reads the layer at `path`, which must be `expected` and whole.
pub fn read_layer(path: &Path, expected: &Header) -> Result<Vec<i8>, FileError> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(FileError::Missing(path.to_path_buf()));
        }
        Err(e) => return Err(FileError::Io(path.to_path_buf(), e)),
    };
    let io = |e| FileError::Io(path.to_path_buf(), e);
    let not_a_table = |why: &str| FileError::NotATable(path.to_path_buf(), why.to_string());
    let mut head = [0u8; HEADER_BYTES];
    file.read_exact(&mut head)
        .map_err(|_| not_a_table("shorter than a header"))?;
    if &head[..8] != MAGIC {
        return Err(not_a_table("no MANCALTB mark"));
    }
    let version = u32::from_le_bytes(head[8..12].try_into().expect("four bytes"));
    if version != FORMAT_VERSION {
        return Err(not_a_table(&format!(
            "format version {version}, this engine reads version {FORMAT_VERSION}"
        )));
    }
    let expected_head = header_bytes(expected);
    if head[..48] != expected_head {
        let name_end = head[12..28].iter().position(|&b| b == 0).unwrap_or(16);
        let name = String::from_utf8_lossy(&head[12..12 + name_end]).into_owned();
        let counters = u32::from_le_bytes(head[32..36].try_into().expect("four bytes"));
        return Err(FileError::Mismatch(
            path.to_path_buf(),
            format!(
                "holds {name} with {counters} counters, not {} with {}",
                expected.variant, expected.counters
            ),
        ));
    }
    let stored_rules = u64::from_le_bytes(head[56..64].try_into().expect("eight bytes"));
    if stored_rules != expected.rules {
        return Err(FileError::Mismatch(
            path.to_path_buf(),
            format!(
                "holds tables of another definition of {} (its game file changed since): build \
                 them again",
                expected.variant
            ),
        ));
    }
    let stored_sum = u64::from_le_bytes(head[48..56].try_into().expect("eight bytes"));
    let mut data = vec![0u8; expected.positions as usize];
    // Probes read the tables at random: on huge pages most of them find their page at once.
    crate::huge_pages::advise(&data);
    file.read_exact(&mut data)
        .map_err(|_| FileError::Damaged(path.to_path_buf()))?;
    let mut extra = [0u8; 1];
    if file.read(&mut extra).map_err(io)? != 0 {
        return Err(FileError::Damaged(path.to_path_buf()));
    }
    if checksum(&[&head[..48], &data]) != stored_sum {
        return Err(FileError::Damaged(path.to_path_buf()));
    }
    // Reinterpreting the bytes as signed values.
    let values = data.into_iter().map(|b| b as i8).collect();
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checksum_sees_every_byte() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
        let base = checksum(&[&data]);
        for i in [0, 7, 8, 500, 999] {
            let mut changed = data.clone();
            changed[i] ^= 1;
            assert_ne!(checksum(&[&changed]), base, "byte {i}");
        }
        assert_ne!(checksum(&[&data[..999]]), base);
    }
}
