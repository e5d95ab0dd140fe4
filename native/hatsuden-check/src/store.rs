//! The files of a run: the frontier layers, parent records, keys and transitions on disk.

use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::PathBuf;

/// The parent record of the initial state.
pub(crate) const NO_PARENT: u64 = u64::MAX;

/// The files of a run.
pub(crate) struct Store {
    pub(crate) dir: PathBuf,
    pub(crate) owned: bool,
    pub(crate) parents: File,
    pub(crate) parents_len: u64,
    pub(crate) out: BufWriter<File>,
    pub(crate) dst: BufWriter<File>,
    pub(crate) keys: BufWriter<File>,
}

impl Store {
    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
    pub(crate) fn layer(&self, d: u64) -> PathBuf {
        self.dir.join(format!("layer_{d}.bin"))
    }
    /// The parent record of state `n`: (parent number, move rank).
    pub(crate) fn parent(&self, n: u64) -> (u64, usize) {
        let mut b = [0u8; 8];
        self.parents.read_exact_at(&mut b, n * 8).expect("parent record");
        let v = u64::from_le_bytes(b);
        if v == NO_PARENT {
            return (NO_PARENT, 0);
        }
        (v & ((1 << 56) - 1), (v >> 56) as usize)
    }
    /// The move ranks from `new_game()` to state `n`.
    pub(crate) fn ranks_to(&self, mut n: u64) -> Vec<usize> {
        let mut ranks = Vec::new();
        loop {
            let (p, r) = self.parent(n);
            if p == NO_PARENT {
                break;
            }
            ranks.push(r);
            n = p;
        }
        ranks.reverse();
        ranks
    }
}

pub(crate) fn rss_bytes() -> u64 {
    fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|x| x.parse::<u64>().ok()))
        .map(|pages| pages * 4096)
        .unwrap_or(0)
}

pub(crate) fn peak_rss_bytes() -> u64 {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|x| x.parse::<u64>().ok()))
        })
        .map(|kb| kb * 1024)
        .unwrap_or(0)
}

pub(crate) fn read_words(file: &mut BufReader<File>, count: usize, w: usize) -> Vec<u64> {
    let mut bytes = vec![0u8; count * w * 8];
    file.read_exact(&mut bytes).expect("frontier file");
    bytes.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().unwrap())).collect()
}

pub(crate) fn write_words(file: &mut impl Write, words: &[u64]) {
    let mut bytes = Vec::with_capacity(words.len() * 8);
    for x in words {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    file.write_all(&bytes).expect("write");
}
