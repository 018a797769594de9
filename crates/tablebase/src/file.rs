//! The file of one layer: a 64-byte header (what the file is, and a checksum of the header and
//! of the block checksums), a checksum per block of 64 Ki values, then one signed byte per
//! position: its value. The engine maps the file and checks a block the first time a probe
//! reads it (as Syzygy probing reads only the pages it touches), so that tables larger than
//! memory start at once; a block whose checksum does not match answers nothing.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `MANCALTB` |
//! | 8 | 4 | format version (little-endian): 2 (version 1, one checksum for the whole file and no block checksums, is still read, whole) |
//! | 12 | 16 | game name, zero-padded (`mangala-ii`, …) |
//! | 28 | 4 | pits on the board |
//! | 32 | 4 | counters on the board (the layer) |
//! | 36 | 4 | board states ([`crate::states`]: 3 in Anywoli, who received the most recent four; the undecided splits of the captures in a majority game; else 1) |
//! | 40 | 8 | positions (values) in the file |
//! | 48 | 8 | checksum of bytes 0..48 and of the block checksums (version 1: of the values) |
//! | 56 | 8 | fingerprint of a loaded game's rules (0 for a built-in game) |
//! | 64 | 8 × blocks | the checksum of each block of values, with its number (version 2 only) |
//! | … | positions | the values |

use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};

use mancala_rules::Variant;

pub const MAGIC: &[u8; 8] = b"MANCALTB";
pub const FORMAT_VERSION: u32 = 2;
/// The first format, still read (whole, at load).
const WHOLE_FILE_VERSION: u32 = 1;
pub const HEADER_BYTES: usize = 64;
/// Values per checked block: a probe's first read of a block checks these 64 KiB (some 10 µs).
pub const BLOCK_VALUES: u64 = 1 << 16;

/// Blocks of a layer of `positions` values.
pub fn blocks(positions: u64) -> u64 {
    positions.div_ceil(BLOCK_VALUES)
}

/// The checksum of block `block` of a layer's values (its number included, so that two blocks
/// swapped are seen too).
fn block_sum(block: u64, values: &[u8]) -> u64 {
    checksum(&[&block.to_le_bytes(), values])
}

/// The bytes of every block's checksum, in order.
fn block_sums(values: &[u8]) -> Vec<u8> {
    values
        .chunks(BLOCK_VALUES as usize)
        .enumerate()
        .flat_map(|(block, chunk)| block_sum(block as u64, chunk).to_le_bytes())
        .collect()
}

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

fn header_bytes(header: &Header, version: u32) -> [u8; 48] {
    let mut bytes = [0u8; 48];
    bytes[..8].copy_from_slice(MAGIC);
    bytes[8..12].copy_from_slice(&version.to_le_bytes());
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
/// layer's name is always whole (and a file the engine has mapped is never changed under it).
pub fn write_layer(path: &Path, header: &Header, values: &[i8]) -> Result<(), FileError> {
    let io = |e| FileError::Io(path.to_path_buf(), e);
    // SAFETY: i8 and u8 have the same size and alignment, and every bit pattern is valid.
    let data: &[u8] = unsafe { std::slice::from_raw_parts(values.as_ptr().cast(), values.len()) };
    let head = header_bytes(header, FORMAT_VERSION);
    let sums = block_sums(data);
    let sum = checksum(&[&head, &sums]);
    let temporary = path.with_extension("mtb.partial");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&temporary).map_err(io)?);
    file.write_all(&head).map_err(io)?;
    file.write_all(&sum.to_le_bytes()).map_err(io)?;
    file.write_all(&header.rules.to_le_bytes()).map_err(io)?;
    file.write_all(&sums).map_err(io)?;
    file.write_all(data).map_err(io)?;
    file.into_inner()
        .map_err(|e| io(e.into_error()))?
        .sync_all()
        .map_err(io)?;
    std::fs::rename(&temporary, path).map_err(io)
}

/// An open layer file whose header is the one expected: its format version, its stored
/// checksum and, in version 2, its block checksums (themselves checked against the header's).
struct Opened {
    file: std::fs::File,
    version: u32,
    head: [u8; HEADER_BYTES],
    sum: u64,
    block_sums: Vec<u64>,
}

/// Opens the layer at `path`, which must be `expected`, and checks its header.
fn open_layer(path: &Path, expected: &Header) -> Result<Opened, FileError> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(FileError::Missing(path.to_path_buf()));
        }
        Err(e) => return Err(FileError::Io(path.to_path_buf(), e)),
    };
    let io = |e| FileError::Io(path.to_path_buf(), e);
    let not_a_table = |why: &str| FileError::NotATable(path.to_path_buf(), why.to_string());
    let damaged = || FileError::Damaged(path.to_path_buf());
    let mut head = [0u8; HEADER_BYTES];
    file.read_exact(&mut head)
        .map_err(|_| not_a_table("shorter than a header"))?;
    if &head[..8] != MAGIC {
        return Err(not_a_table("no MANCALTB mark"));
    }
    let version = u32::from_le_bytes(head[8..12].try_into().expect("four bytes"));
    if version != FORMAT_VERSION && version != WHOLE_FILE_VERSION {
        return Err(not_a_table(&format!(
            "format version {version}, this engine reads versions {WHOLE_FILE_VERSION} and \
             {FORMAT_VERSION}"
        )));
    }
    let expected_head = header_bytes(expected, version);
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
    let sum = u64::from_le_bytes(head[48..56].try_into().expect("eight bytes"));
    let mut block_sums = Vec::new();
    let mut sums_bytes = 0;
    if version == FORMAT_VERSION {
        let mut bytes = vec![0u8; blocks(expected.positions) as usize * 8];
        file.read_exact(&mut bytes).map_err(|_| damaged())?;
        if checksum(&[&head[..48], &bytes]) != sum {
            return Err(damaged());
        }
        block_sums = bytes
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("eight bytes")))
            .collect();
        sums_bytes = bytes.len() as u64;
    }
    // Exactly the header, the block checksums and the values: a shorter or longer file is not
    // the one written.
    let length = file.metadata().map_err(io)?.len();
    if length != HEADER_BYTES as u64 + sums_bytes + expected.positions {
        return Err(damaged());
    }
    Ok(Opened {
        file,
        version,
        head,
        sum,
        block_sums,
    })
}

/// Reads the whole layer at `path`, which must be `expected` and whole (every block checked):
/// what the generator builds on.
pub fn read_layer(path: &Path, expected: &Header) -> Result<Vec<i8>, FileError> {
    let mut opened = open_layer(path, expected)?;
    let mut data = vec![0u8; expected.positions as usize];
    // Probes read the tables at random: on huge pages most of them find their page at once.
    mancala_platform::huge_pages::advise(&data);
    opened
        .file
        .read_exact(&mut data)
        .map_err(|_| FileError::Damaged(path.to_path_buf()))?;
    let whole = match opened.version {
        WHOLE_FILE_VERSION => checksum(&[&opened.head[..48], &data]) == opened.sum,
        _ => data
            .chunks(BLOCK_VALUES as usize)
            .zip(&opened.block_sums)
            .enumerate()
            .all(|(block, (chunk, &sum))| block_sum(block as u64, chunk) == sum),
    };
    if !whole {
        return Err(FileError::Damaged(path.to_path_buf()));
    }
    // Reinterpreting the bytes as signed values.
    Ok(data.into_iter().map(|b| b as i8).collect())
}

/// The values of a layer: in memory, or mapped from its file and checked block by block as
/// probes first read them.
pub enum LayerValues {
    InMemory(Vec<i8>),
    Mapped(MappedValues),
}

impl LayerValues {
    /// The value at `index`; `None` beyond the layer or in a damaged block.
    #[inline]
    pub fn get(&self, index: u64) -> Option<i8> {
        match self {
            LayerValues::InMemory(values) => values.get(index as usize).copied(),
            LayerValues::Mapped(mapped) => mapped.get(index),
        }
    }

    /// The values in the layer.
    pub fn len(&self) -> u64 {
        match self {
            LayerValues::InMemory(values) => values.len() as u64,
            LayerValues::Mapped(mapped) => mapped.positions,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A block not read yet, one whose checksum matched, one whose checksum did not.
const UNCHECKED: u8 = 0;
const SOUND: u8 = 1;
const DAMAGED: u8 = 2;

/// A layer file mapped into memory: the operating system reads a page when a probe first
/// touches it, and may drop it again under memory pressure.
///
/// What the caller must guarantee: the file is not truncated or rewritten in place while it is
/// mapped (the tools never do: they write a new file and rename it over the old one). A block
/// is checked against its checksum, and the file's length against the block, before its first
/// read, so a file cut short before a block is touched leaves that block out instead of ending
/// the process; a file cut short under a block already read can still end it (SIGBUS) when
/// the operating system reads the dropped page again.
pub struct MappedValues {
    map: memmap2::Mmap,
    /// The mapped file, whose length is checked before a block's first read.
    file: std::fs::File,
    /// Where the values start in the file.
    offset: usize,
    positions: u64,
    block_sums: Vec<u64>,
    checked: Vec<AtomicU8>,
    path: PathBuf,
}

impl MappedValues {
    #[inline]
    fn get(&self, index: u64) -> Option<i8> {
        if index >= self.positions {
            return None;
        }
        let block = (index / BLOCK_VALUES) as usize;
        match self.checked[block].load(Ordering::Relaxed) {
            SOUND => {}
            DAMAGED => return None,
            _ => {
                if !self.check(block) {
                    return None;
                }
            }
        }
        Some(self.map[self.offset + index as usize] as i8)
    }

    /// Checks block `block` against its checksum, once (two threads may both check it: the
    /// answer is the same).
    #[cold]
    fn check(&self, block: usize) -> bool {
        let start = self.offset + block * BLOCK_VALUES as usize;
        let end = (start + BLOCK_VALUES as usize).min(self.offset + self.positions as usize);
        // A file cut short since it was mapped: reading past its end would end the process.
        let whole = self
            .file
            .metadata()
            .is_ok_and(|m| m.len() >= self.map.len() as u64);
        let sound =
            whole && block_sum(block as u64, &self.map[start..end]) == self.block_sums[block];
        self.checked[block].store(if sound { SOUND } else { DAMAGED }, Ordering::Relaxed);
        if !sound {
            log::error!(
                "tablebase: {} is damaged (block {block} of its values does not match its \
                 checksum): its positions there are left out; build it again",
                self.path.display()
            );
        }
        sound
    }

    /// Blocks found damaged so far.
    pub fn damaged_blocks(&self) -> usize {
        self.checked
            .iter()
            .filter(|c| c.load(Ordering::Relaxed) == DAMAGED)
            .count()
    }
}

/// Opens the layer at `path`, which must be `expected`, for probing: a version 2 file is mapped
/// (its header and block checksums checked now, each block when first read); a version 1 file
/// is read and checked whole.
pub fn map_layer(path: &Path, expected: &Header) -> Result<LayerValues, FileError> {
    let opened = open_layer(path, expected)?;
    if opened.version == WHOLE_FILE_VERSION {
        return read_layer(path, expected).map(LayerValues::InMemory);
    }
    let offset = HEADER_BYTES + opened.block_sums.len() * 8;
    // SAFETY: the mapping is read-only, and layer files are only ever replaced whole (written
    // to a temporary file and renamed over the old one), never changed in place: a file the
    // engine has mapped stays as it was mapped (the guarantee `MappedValues` asks of whoever
    // else writes the directory). Every byte read through it is checked against its block's
    // checksum, and the file's length, before it is used.
    let map = unsafe { memmap2::Mmap::map(&opened.file) }
        .map_err(|e| FileError::Io(path.to_path_buf(), e))?;
    if map.len() != offset + expected.positions as usize {
        return Err(FileError::Damaged(path.to_path_buf()));
    }
    let checked = (0..opened.block_sums.len())
        .map(|_| AtomicU8::new(UNCHECKED))
        .collect();
    Ok(LayerValues::Mapped(MappedValues {
        map,
        file: opened.file,
        offset,
        positions: expected.positions,
        block_sums: opened.block_sums,
        checked,
        path: path.to_path_buf(),
    }))
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

    fn temporary(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("mancala-file-{name}-{}.mtb", std::process::id()))
    }

    /// A header for `positions` values of Mangala II's layer of `counters` (the file functions
    /// only compare it, whatever its size).
    fn header(positions: u64) -> Header {
        Header {
            variant: Variant::MangalaII,
            pits: 12,
            counters: 9,
            states: 1,
            positions,
            rules: 0,
        }
    }

    #[test]
    fn a_damaged_block_answers_nothing_and_the_others_still_answer() {
        let path = temporary("blocks");
        let positions = 2 * BLOCK_VALUES + 1000;
        let values: Vec<i8> = (0..positions).map(|i| (i % 251) as i8).collect();
        let expected = header(positions);
        write_layer(&path, &expected, &values).unwrap();
        let mapped = map_layer(&path, &expected).unwrap();
        for index in [0, BLOCK_VALUES, positions - 1] {
            assert_eq!(mapped.get(index), Some(values[index as usize]));
        }
        assert_eq!(mapped.get(positions), None);
        drop(mapped);

        // One value of the second block changed: that block answers nothing, the others do.
        let mut bytes = std::fs::read(&path).unwrap();
        let values_start = HEADER_BYTES + 3 * 8;
        bytes[values_start + BLOCK_VALUES as usize + 7] ^= 0x10;
        std::fs::write(&path, &bytes).unwrap();
        let LayerValues::Mapped(mapped) = map_layer(&path, &expected).unwrap() else {
            panic!("a version 2 file is mapped");
        };
        assert_eq!(mapped.get(3), Some(values[3]));
        assert_eq!(mapped.get(BLOCK_VALUES + 100), None);
        assert_eq!(
            mapped.get(2 * BLOCK_VALUES + 5),
            Some(values[2 * BLOCK_VALUES as usize + 5])
        );
        assert_eq!(mapped.damaged_blocks(), 1);
        // Read whole (as the generator reads the layers it reuses), the file is refused.
        assert!(matches!(
            read_layer(&path, &expected),
            Err(FileError::Damaged(_))
        ));
        // So is a file with one value fewer or one more.
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(matches!(
            map_layer(&path, &expected),
            Err(FileError::Damaged(_))
        ));
        let mut longer = bytes.clone();
        longer.push(0);
        std::fs::write(&path, &longer).unwrap();
        assert!(matches!(
            map_layer(&path, &expected),
            Err(FileError::Damaged(_))
        ));
        let _ = std::fs::remove_file(&path);
    }

    /// A mapped file cut short by someone else: the blocks not read yet answer nothing, where
    /// reading them would end the process (SIGBUS).
    #[test]
    fn a_file_cut_short_after_mapping_leaves_its_unread_blocks_out() {
        let path = temporary("cut");
        let positions = 3 * BLOCK_VALUES;
        let values: Vec<i8> = (0..positions).map(|i| (i % 201) as i8).collect();
        let expected = header(positions);
        write_layer(&path, &expected, &values).unwrap();
        let LayerValues::Mapped(mapped) = map_layer(&path, &expected).unwrap() else {
            panic!("a version 2 file is mapped");
        };
        assert_eq!(mapped.get(5), Some(values[5]));
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(HEADER_BYTES as u64 + 100)
            .unwrap();
        assert_eq!(mapped.get(2 * BLOCK_VALUES + 9), None);
        assert_eq!(mapped.get(BLOCK_VALUES + 9), None);
        assert_eq!(mapped.damaged_blocks(), 2);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn files_of_the_first_format_are_still_read_whole() {
        let path = temporary("version-1");
        let values: Vec<i8> = (0..5000).map(|i| (i % 97 - 48) as i8).collect();
        let expected = header(values.len() as u64);
        let data: Vec<u8> = values.iter().map(|&v| v as u8).collect();
        let head = header_bytes(&expected, WHOLE_FILE_VERSION);
        let mut bytes = head.to_vec();
        bytes.extend_from_slice(&checksum(&[&head, &data]).to_le_bytes());
        bytes.extend_from_slice(&0u64.to_le_bytes());
        bytes.extend_from_slice(&data);
        std::fs::write(&path, &bytes).unwrap();
        let LayerValues::InMemory(read) = map_layer(&path, &expected).unwrap() else {
            panic!("a version 1 file is read whole");
        };
        assert_eq!(read, values);
        bytes[HEADER_BYTES + 10] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            map_layer(&path, &expected),
            Err(FileError::Damaged(_))
        ));
        let _ = std::fs::remove_file(&path);
    }
}
