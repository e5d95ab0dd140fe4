//! The data of a run: the frontier layers, parent records, keys and transitions. They go to
//! files in the run's directory when it is a checkpoint (`--checkpoint`), and otherwise stay in
//! memory while they fit in the run's memory budget ([`crate::search::Options::store_budget`]);
//! past it they are moved to files and the run goes on there ([`Store::spill`]). Either way the
//! search reads and writes the same bytes in the same order.

use std::borrow::Cow;
use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// The parent record of the initial state.
pub(crate) const NO_PARENT: u64 = u64::MAX;

/// Append-only bytes of a run (out-degrees, successor keys, state keys): a file, or memory.
pub(crate) enum Sink {
    File(BufWriter<File>),
    /// The bytes in order, in the parts they came in: the workers' buffers are kept as they
    /// are ([`Sink::push`]), not copied into one vector.
    Memory(Vec<Vec<u8>>),
}

/// Bytes of a new part of a [`Sink::Memory`] that small writes fill.
const PART_BYTES: usize = 1 << 16;

impl Sink {
    pub(crate) fn file(f: File) -> Sink {
        Sink::File(BufWriter::with_capacity(1 << 20, f))
    }

    /// Bytes written so far (a file is flushed first).
    pub(crate) fn written(&mut self) -> io::Result<u64> {
        match self {
            Sink::File(f) => {
                f.flush()?;
                Ok(f.get_ref().metadata()?.len())
            }
            Sink::Memory(parts) => Ok(parts.iter().map(|p| p.len() as u64).sum()),
        }
    }

    /// Append `bytes`, taking the vector itself when the bytes stay in memory.
    pub(crate) fn push(&mut self, bytes: Vec<u8>) -> io::Result<()> {
        match self {
            Sink::File(f) => f.write_all(&bytes),
            Sink::Memory(parts) => {
                if !bytes.is_empty() {
                    parts.push(bytes);
                }
                Ok(())
            }
        }
    }

    /// Bytes held in memory.
    fn memory(&self) -> u64 {
        match self {
            Sink::File(_) => 0,
            Sink::Memory(parts) => parts.iter().map(|p| p.capacity() as u64).sum(),
        }
    }

    /// Move the bytes held in memory to a new file at `path`; later writes go there.
    fn spill(&mut self, path: &Path) -> io::Result<()> {
        if let Sink::Memory(parts) = self {
            let mut f = BufWriter::with_capacity(1 << 20, File::create(path)?);
            for p in parts.iter() {
                f.write_all(p)?;
            }
            *self = Sink::File(f);
        }
        Ok(())
    }

    /// A reader of every byte written, from the first (a file must have been flushed).
    pub(crate) fn reader(&self, path: &Path) -> io::Result<Box<dyn Read + '_>> {
        Ok(match self {
            Sink::File(_) => Box::new(BufReader::with_capacity(1 << 22, File::open(path)?)),
            Sink::Memory(parts) => Box::new(PartsReader { parts, at: 0 }),
        })
    }
}

/// Reads the parts of a [`Sink::Memory`] as one stream.
struct PartsReader<'a> {
    parts: &'a [Vec<u8>],
    /// Bytes of the first part already read.
    at: usize,
}

impl Read for PartsReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while let Some(first) = self.parts.first() {
            if self.at < first.len() {
                let n = buf.len().min(first.len() - self.at);
                buf[..n].copy_from_slice(&first[self.at..self.at + n]);
                self.at += n;
                return Ok(n);
            }
            self.parts = &self.parts[1..];
            self.at = 0;
        }
        Ok(0)
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Sink::File(f) => f.write_all(buf),
            Sink::Memory(parts) => {
                match parts.last_mut() {
                    Some(last) if last.capacity() - last.len() >= buf.len() => last.extend_from_slice(buf),
                    _ => {
                        let mut part = Vec::with_capacity(buf.len().max(PART_BYTES));
                        part.extend_from_slice(buf);
                        parts.push(part);
                    }
                }
                Ok(())
            }
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::File(f) => f.flush(),
            Sink::Memory(_) => Ok(()),
        }
    }
}

/// Each state's parent record (`number | rank << 56`, [`NO_PARENT`] for the root), by number.
pub(crate) enum Parents {
    File(File),
    Memory(Vec<u64>),
}

/// A frontier layer: packed states in number order.
pub(crate) enum Layer {
    File(PathBuf),
    Memory(Vec<u64>),
}

impl Layer {
    /// Words in the layer.
    pub(crate) fn words(&self) -> u64 {
        match self {
            Layer::File(p) => fs::metadata(p).map(|m| m.len()).unwrap_or(0) / 8,
            Layer::Memory(v) => v.len() as u64,
        }
    }

    /// A reader of the layer from its first state.
    pub(crate) fn reader(&self) -> io::Result<LayerReader<'_>> {
        Ok(match self {
            Layer::File(p) => LayerReader::File(BufReader::with_capacity(1 << 22, File::open(p)?)),
            Layer::Memory(v) => LayerReader::Memory(v),
        })
    }

    /// The layer is done with: its file is removed.
    pub(crate) fn remove(self) {
        if let Layer::File(p) = self {
            let _ = fs::remove_file(p);
        }
    }

    fn memory(&self) -> u64 {
        match self {
            Layer::File(_) => 0,
            Layer::Memory(v) => v.capacity() as u64 * 8,
        }
    }

    /// A layer held in memory is written to `path`, and read from there.
    fn spill(&mut self, path: PathBuf) -> io::Result<()> {
        if let Layer::Memory(v) = self {
            let mut f = BufWriter::with_capacity(1 << 22, File::create(&path)?);
            write_words(&mut f, v);
            f.flush()?;
            *self = Layer::File(path);
        }
        Ok(())
    }
}

/// Reads a layer a batch of states at a time.
pub(crate) enum LayerReader<'a> {
    File(BufReader<File>),
    Memory(&'a [u64]),
}

impl<'a> LayerReader<'a> {
    /// The next `count` states of `w` words (read from the file, or borrowed from memory).
    pub(crate) fn batch(&mut self, count: usize, w: usize) -> Cow<'a, [u64]> {
        match self {
            LayerReader::File(f) => Cow::Owned(read_words(f, count, w)),
            LayerReader::Memory(rest) => {
                let (head, tail) = rest.split_at(count * w);
                *rest = tail;
                Cow::Borrowed(head)
            }
        }
    }
}

/// Writes the next layer.
pub(crate) enum LayerWriter {
    File(BufWriter<File>, PathBuf),
    Memory(Vec<u64>),
}

impl LayerWriter {
    pub(crate) fn write(&mut self, words: &[u64]) {
        match self {
            LayerWriter::File(f, _) => write_words(f, words),
            LayerWriter::Memory(v) => v.extend_from_slice(words),
        }
    }
    /// Like [`LayerWriter::write`], taking the vector itself when the layer is empty so far.
    pub(crate) fn write_vec(&mut self, words: Vec<u64>) {
        match self {
            LayerWriter::Memory(v) if v.is_empty() => *v = words,
            _ => self.write(&words),
        }
    }
    pub(crate) fn finish(self) -> io::Result<Layer> {
        Ok(match self {
            LayerWriter::File(mut f, p) => {
                f.flush()?;
                Layer::File(p)
            }
            LayerWriter::Memory(v) => Layer::Memory(v),
        })
    }
}

/// The data of a run.
pub(crate) struct Store {
    pub(crate) dir: PathBuf,
    pub(crate) owned: bool,
    pub(crate) parents: Parents,
    pub(crate) parents_len: u64,
    pub(crate) out: Sink,
    pub(crate) dst: Sink,
    pub(crate) keys: Sink,
}

impl Store {
    /// A store whose data stays in memory (until [`Store::spill`]).
    pub(crate) fn in_memory(dir: PathBuf, owned: bool) -> Store {
        Store {
            dir,
            owned,
            parents: Parents::Memory(Vec::new()),
            parents_len: 0,
            out: Sink::Memory(Vec::new()),
            dst: Sink::Memory(Vec::new()),
            keys: Sink::Memory(Vec::new()),
        }
    }

    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
    pub(crate) fn layer(&self, d: u64) -> PathBuf {
        self.dir.join(format!("layer_{d}.bin"))
    }

    /// Whether the run's data is held in memory.
    pub(crate) fn is_memory(&self) -> bool {
        matches!(self.parents, Parents::Memory(_))
    }

    /// A writer of layer `d`: in memory when the run's data is.
    pub(crate) fn layer_writer(&self, d: u64) -> io::Result<LayerWriter> {
        if self.is_memory() {
            return Ok(LayerWriter::Memory(Vec::new()));
        }
        let path = self.layer(d);
        Ok(LayerWriter::File(BufWriter::with_capacity(1 << 22, File::create(&path)?), path))
    }

    /// Bytes of the run's data held in memory, with the frontier `layer`.
    pub(crate) fn memory(&self, layer: &Layer) -> u64 {
        let parents = match &self.parents {
            Parents::File(_) => 0,
            Parents::Memory(v) => v.capacity() as u64 * 8,
        };
        parents + self.out.memory() + self.dst.memory() + self.keys.memory() + layer.memory()
    }

    /// Move the data held in memory (and the frontier `layer`, of depth `d`) to the run's
    /// files, in the form a file store has written them; the run goes on with files.
    pub(crate) fn spill(&mut self, layer: &mut Layer, d: u64) -> io::Result<()> {
        if let Parents::Memory(v) = &self.parents {
            let f = fs::OpenOptions::new()
                .create(true)
                .read(true)
                .write(true)
                .truncate(true)
                .open(self.path("parents.u64"))?;
            let mut bytes = Vec::with_capacity(v.len() * 8);
            for x in v {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
            f.write_all_at(&bytes, 0)?;
            self.parents = Parents::File(f);
        }
        let (out, dst, keys) = (self.path("edges_src.bin"), self.path("edges_dst.bin"), self.path("keys.bin"));
        self.out.spill(&out)?;
        self.dst.spill(&dst)?;
        self.keys.spill(&keys)?;
        layer.spill(self.layer(d))
    }

    /// Append parent records (`number | rank << 56`, little-endian bytes).
    pub(crate) fn push_parents(&mut self, bytes: &[u8]) -> io::Result<()> {
        match &mut self.parents {
            Parents::File(f) => f.write_all_at(bytes, self.parents_len * 8)?,
            Parents::Memory(v) => {
                v.extend(bytes.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().unwrap())));
            }
        }
        self.parents_len += (bytes.len() / 8) as u64;
        Ok(())
    }

    /// Append parent records (`number | rank << 56`).
    pub(crate) fn push_parent_words(&mut self, words: &[u64]) -> io::Result<()> {
        match &mut self.parents {
            Parents::File(f) => {
                let mut bytes = Vec::with_capacity(words.len() * 8);
                for x in words {
                    bytes.extend_from_slice(&x.to_le_bytes());
                }
                f.write_all_at(&bytes, self.parents_len * 8)?;
            }
            Parents::Memory(v) => v.extend_from_slice(words),
        }
        self.parents_len += words.len() as u64;
        Ok(())
    }

    /// The parent record of state `n`: (parent number, move rank).
    pub(crate) fn parent(&self, n: u64) -> (u64, usize) {
        let v = match &self.parents {
            Parents::File(f) => {
                let mut b = [0u8; 8];
                f.read_exact_at(&mut b, n * 8).expect("parent record");
                u64::from_le_bytes(b)
            }
            Parents::Memory(v) => v[n as usize],
        };
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
