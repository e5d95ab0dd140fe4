//! The visited set: 84-bit fingerprints of packed states in 2^20 sorted shards.

use rayon::prelude::*;
use std::cell::{Cell, RefCell};

/// Bits of a fingerprint that choose its shard of the visited set.
pub const SHARD_BITS: u32 = 20;
/// Bits of identity of a fingerprint (shard bits + the stored 64).
pub const FINGERPRINT_BITS: u32 = SHARD_BITS + 64;
/// Bytes of a fingerprint on disk.
pub(crate) const KEY_BYTES: usize = 12;

/// The 128-bit hash of a packed state: two chained 64-bit mixes (murmur3's finaliser).
#[inline]
pub fn fingerprint(words: &[u64]) -> u128 {
    #[inline]
    fn fmix(mut k: u64) -> u64 {
        k ^= k >> 33;
        k = k.wrapping_mul(0xff51afd7ed558ccd);
        k ^= k >> 33;
        k = k.wrapping_mul(0xc4ceb9fe1a85ec53);
        k ^ (k >> 33)
    }
    let mut a: u64 = 0x243f6a8885a308d3;
    let mut b: u64 = 0x13198a2e03707344;
    for &w in words {
        a = fmix(a.rotate_left(17) ^ w.wrapping_mul(0x9e3779b97f4a7c15));
        b = fmix(b.rotate_left(29) ^ w.wrapping_mul(0xbf58476d1ce4e5b9).wrapping_add(0x94d049bb133111eb));
    }
    a = fmix(a ^ words.len() as u64);
    b = fmix(b ^ a.rotate_left(32));
    // The key: shard bits of `a` above the 64 bits of `b`.
    ((a >> (64 - SHARD_BITS)) as u128) << 64 | b as u128
}

#[inline]
pub(crate) fn shard_of(key: u128) -> usize {
    (key >> 64) as usize
}

pub(crate) fn key_bytes(key: u128) -> [u8; KEY_BYTES] {
    let mut out = [0u8; KEY_BYTES];
    out[..4].copy_from_slice(&((key >> 64) as u32).to_le_bytes());
    out[4..].copy_from_slice(&(key as u64).to_le_bytes());
    out
}

pub(crate) fn key_from(b: &[u8]) -> u128 {
    let hi = u32::from_le_bytes(b[..4].try_into().unwrap()) as u128;
    let lo = u64::from_le_bytes(b[4..12].try_into().unwrap()) as u128;
    hi << 64 | lo
}

/// Bits of the shard number that choose a super-shard (a contiguous sorted vector).
const SUPER_BITS: u32 = 12;
const SUB_BITS: u32 = SHARD_BITS - SUPER_BITS;
const SUBS: usize = 1 << SUB_BITS;

/// Where `b` is in the sorted `data` (interpolation from the uniform 64-bit value, then a
/// linear walk: about sqrt(len) steps, one or two cache lines).
#[inline]
fn find(data: &[u64], b: u64) -> Result<usize, usize> {
    let len = data.len();
    if len == 0 {
        return Err(0);
    }
    let mut i = ((b as u128 * len as u128) >> 64) as usize;
    if data[i] < b {
        while i + 1 < len && data[i + 1] <= b {
            i += 1;
        }
        if data[i] == b {
            Ok(i)
        } else {
            Err(i + 1)
        }
    } else {
        while i > 0 && data[i] > b {
            i -= 1;
        }
        if data[i] == b {
            Ok(i)
        } else if data[i] < b {
            Err(i + 1)
        } else {
            Err(i)
        }
    }
}

/// One super-shard: the stored words of its 2^8 shards, sorted by (shard, word), and where
/// each shard starts.
#[derive(Default)]
struct Super {
    data: Vec<u64>,
    offs: Vec<u32>,
}

impl Super {
    /// Insert the keys `key_at(0..n)` (sorted, all of this super-shard) that it does not hold,
    /// each once; `kept` is called with the index of each key inserted (its first), in order.
    /// Returns how many were inserted and how many distinct keys were held (visited).
    ///
    /// One forward pass: the runs of stored words between the shards that receive keys are
    /// copied whole, each receiving shard is merged with its keys (a key found there is visited:
    /// skipped) into `spare`, which then becomes the data, and the old data the next super-shard's
    /// spare (no allocation while it is large enough). The shards' offsets move by the keys
    /// inserted before them, a run of shards at a time.
    fn insert(
        &mut self,
        n: usize,
        key_at: impl Fn(usize) -> u128,
        spare: &mut Vec<u64>,
        mut kept: impl FnMut(usize),
    ) -> (usize, usize) {
        let old = &self.data;
        let need = old.len() + n;
        if spare.capacity() < need {
            // A quarter to spare, so that the next layers' keys often fit.
            *spare = Vec::with_capacity(need + need / 4);
        }
        spare.clear();
        // Keys inserted so far; the first shard whose offset has not moved yet; old words copied.
        let (mut added, mut fixed, mut copied) = (0u32, 0usize, 0usize);
        let mut visited = 0;
        let mut i = 0;
        let mut k = if n > 0 { key_at(0) } else { 0 };
        while i < n {
            let shard = shard_of(k);
            let sub = shard & (SUBS - 1);
            let (from, to) = (self.offs[sub] as usize, self.offs[sub + 1] as usize);
            // The shards up to this one move by the keys inserted before it.
            for o in &mut self.offs[fixed..=sub] {
                *o += added;
            }
            fixed = sub + 1;
            spare.extend_from_slice(&old[copied..from]);
            let mut a = from;
            // The shard's last key (none yet: an old word there is not a key of this run).
            let mut prev = None;
            loop {
                let x = k as u64;
                if prev != Some(x) {
                    prev = Some(x);
                    while a < to && old[a] < x {
                        spare.push(old[a]);
                        a += 1;
                    }
                    if a == to || old[a] != x {
                        spare.push(x);
                        added += 1;
                        kept(i);
                    } else {
                        visited += 1;
                    }
                }
                i += 1;
                if i == n {
                    break;
                }
                k = key_at(i);
                if shard_of(k) != shard {
                    break;
                }
            }
            copied = a;
        }
        spare.extend_from_slice(&old[copied..]);
        for o in &mut self.offs[fixed..] {
            *o += added;
        }
        debug_assert_eq!(self.offs[SUBS] as usize, spare.len());
        std::mem::swap(&mut self.data, spare);
        (added as usize, visited)
    }
}

thread_local! {
    /// Each worker's spare data vector for [`Super::insert`].
    static SPARE: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// Super-shards of the visited set that take keys together ([`Visited::groups`]).
pub(crate) struct Group<'a> {
    supers: &'a mut [Super],
    /// The number of the first.
    first: usize,
}

impl Group<'_> {
    /// Insert the keys of `items` (sorted by key, all of this group) that are not visited,
    /// keeping the first item of each at the front of `items`, in order. Returns how many, and
    /// how many distinct keys were visited.
    pub(crate) fn insert_new<T: Copy>(&mut self, items: &mut [T], key: impl Fn(&T) -> u128) -> (usize, usize) {
        // Read and moved down in place (an item only moves to an index not read again).
        let cells = Cell::from_mut(items).as_slice_of_cells();
        let mut at = 0;
        let (mut j, mut visited) = (0, 0);
        SPARE.with(|spare| {
            let spare = &mut spare.borrow_mut();
            while at < cells.len() {
                let g = shard_of(key(&cells[at].get())) >> SUB_BITS;
                debug_assert!(g >= self.first && g < self.first + self.supers.len(), "a key of another group");
                let run = &cells[at..];
                let n = run.partition_point(|c| shard_of(key(&c.get())) >> SUB_BITS == g);
                let (_, v) = self.supers[g - self.first].insert(
                    n,
                    |i| key(&run[i].get()),
                    spare,
                    |i| {
                        cells[j].set(run[i].get());
                        j += 1;
                    },
                );
                visited += v;
                at += n;
            }
        });
        (j, visited)
    }
}

/// The visited set: the low 64 bits of each fingerprint, sorted, in 2^20 shards chosen by its
/// top 20 bits (grouped into 2^12 contiguous super-shards): 8 bytes a state.
pub(crate) struct Visited {
    supers: Vec<Super>,
    pub(crate) len: u64,
}

impl Visited {
    pub(crate) fn new() -> Visited {
        Visited {
            supers: (0..1usize << SUPER_BITS).map(|_| Super { data: Vec::new(), offs: vec![0; SUBS + 1] }).collect(),
            len: 0,
        }
    }
    #[inline]
    fn locate(&self, key: u128) -> (&Super, usize, usize) {
        let shard = shard_of(key);
        let sup = &self.supers[shard >> SUB_BITS];
        let sub = shard & (SUBS - 1);
        (sup, sup.offs[sub] as usize, sup.offs[sub + 1] as usize)
    }
    #[inline]
    pub(crate) fn contains(&self, key: u128) -> bool {
        let (sup, lo, hi) = self.locate(key);
        find(&sup.data[lo..hi], key as u64).is_ok()
    }
    /// Merge the sorted, duplicate-free `new` keys (none visited).
    #[inline(never)]
    pub(crate) fn merge(&mut self, new: &[u128]) {
        self.merge_by(new, |&k| k);
    }

    /// Merge the items of `new`, sorted by `key` and duplicate-free (none visited).
    pub(crate) fn merge_by<T: Sync>(&mut self, new: &[T], key: impl Fn(&T) -> u128 + Sync) {
        self.len += new.len() as u64;
        self.supers.par_iter_mut().enumerate().for_each(|(g, sup)| {
            let first = g << SUB_BITS;
            let lo = new.partition_point(|k| shard_of(key(k)) < first);
            let hi = new.partition_point(|k| shard_of(key(k)) < first + SUBS);
            if lo < hi {
                let add = &new[lo..hi];
                let (added, _) =
                    SPARE.with(|spare| sup.insert(add.len(), |i| key(&add[i]), &mut spare.borrow_mut(), |_| ()));
                debug_assert_eq!(added, hi - lo, "a merged key was visited or repeated");
            }
        });
    }

    /// The visited set in `n` groups of super-shards (`n` a power of two, at most 2^12), in key
    /// order: group `g` holds the keys whose top `log2(n)` bits are `g`. Groups can take their
    /// keys ([`Group::insert_new`]) in parallel; the caller adds those to `len`.
    pub(crate) fn groups(&mut self, n: usize) -> Vec<Group<'_>> {
        assert!(n.is_power_of_two() && n <= self.supers.len(), "groups of whole super-shards");
        let per = self.supers.len() / n;
        self.supers.chunks_mut(per).enumerate().map(|(g, supers)| Group { supers, first: g * per }).collect()
    }
    pub(crate) fn bytes(&self) -> u64 {
        self.supers.iter().map(|s| s.data.capacity() as u64 * 8 + s.offs.capacity() as u64 * 4 + 48).sum()
    }
    /// The rank of the first key of each super-shard (and the total).
    pub(crate) fn offsets(&self) -> Vec<u64> {
        let mut out = Vec::with_capacity(self.supers.len() + 1);
        let mut total = 0u64;
        for s in &self.supers {
            out.push(total);
            total += s.data.len() as u64;
        }
        out.push(total);
        out
    }
    #[inline]
    pub(crate) fn rank(&self, offsets: &[u64], key: u128) -> Option<u64> {
        let (sup, lo, hi) = self.locate(key);
        find(&sup.data[lo..hi], key as u64).ok().map(|i| offsets[shard_of(key) >> SUB_BITS] + (lo + i) as u64)
    }
}
