//! The strict notation reader: one pass, left to right, over the characters of a line
//! (NOTATION.md, "Errors: which one, and where").

use crate::error::NotationError;

pub(crate) struct Scanner<'a> {
    pub chars: &'a [char],
    pub pos: usize,
    pub field: &'static str,
}

pub(crate) type R<T> = Result<T, NotationError>;

impl<'a> Scanner<'a> {
    pub fn new(chars: &'a [char], field: &'static str) -> Self {
        Scanner { chars, pos: 0, field }
    }

    pub fn err<T>(&self, pos: usize, msg: impl Into<String>) -> R<T> {
        Err(NotationError::new(self.field, pos, msg))
    }

    pub fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.chars.len()
    }

    pub fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("'{c}'"),
            None => "the end".to_string(),
        }
    }

    pub fn expect(&mut self, c: char) -> R<()> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            self.err(self.pos, format!("expected '{c}', found {}", self.found()))
        }
    }

    pub fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub fn starts_with(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(k, c)| self.chars.get(self.pos + k) == Some(&c))
    }

    /// A number (`0` or no leading zero), at most `max_digits` digits; errors where the digits
    /// start.
    pub fn number(&mut self, max_digits: usize) -> R<u64> {
        let start = self.pos;
        let mut end = start;
        while end < self.chars.len() && self.chars[end].is_ascii_digit() {
            end += 1;
        }
        if end == start {
            return self.err(start, format!("expected a number, found {}", self.found()));
        }
        if self.chars[start] == '0' && end - start > 1 {
            return self.err(start, "a number has no leading zero");
        }
        if end - start > max_digits {
            return self.err(start, format!("a number has at most {max_digits} digits here"));
        }
        let mut v: u64 = 0;
        for c in &self.chars[start..end] {
            v = v.wrapping_mul(10).wrapping_add(*c as u64 - '0' as u64);
        }
        self.pos = end;
        Ok(v)
    }

    /// Like `number`, but 20 digits into a u128 (the generator state and seeds).
    pub fn big_number(&mut self) -> R<u128> {
        let start = self.pos;
        let mut end = start;
        while end < self.chars.len() && self.chars[end].is_ascii_digit() {
            end += 1;
        }
        if end == start {
            return self.err(start, format!("expected a number, found {}", self.found()));
        }
        if self.chars[start] == '0' && end - start > 1 {
            return self.err(start, "a number has no leading zero");
        }
        if end - start > 20 {
            return self.err(start, "a number has at most 20 digits here");
        }
        let mut v: u128 = 0;
        for c in &self.chars[start..end] {
            v = v * 10 + (*c as u128 - '0' as u128);
        }
        self.pos = end;
        Ok(v)
    }

    /// The longest run of characters satisfying `f`, starting here.
    pub fn token(&mut self, f: impl Fn(char) -> bool) -> (usize, String) {
        let start = self.pos;
        while self.pos < self.chars.len() && f(self.chars[self.pos]) {
            self.pos += 1;
        }
        (start, self.chars[start..self.pos].iter().collect())
    }

    /// A lower-case word (`[a-z_-]+`).
    pub fn word(&mut self) -> (usize, String) {
        self.token(|c| c.is_ascii_lowercase() || c == '_' || c == '-')
    }

    /// `key=` at this place, else an error at this place naming `field`.
    pub fn key(&mut self, key: &'static str) -> R<usize> {
        self.field = key;
        let start = self.pos;
        if self.starts_with(key) && self.chars.get(self.pos + key.len()) == Some(&'=') {
            self.pos += key.len() + 1;
            Ok(start)
        } else {
            let shown: String = self.chars[self.pos..].iter().take(key.len()).collect();
            let shown = if shown.is_empty() { "the end".to_string() } else { format!("'{shown}'") };
            self.err(start, format!("expected {key}=, found {shown}"))
        }
    }

    pub fn end(&self) -> R<()> {
        if self.at_end() {
            Ok(())
        } else {
            self.err(self.pos, format!("unexpected {} after the end", self.found()))
        }
    }
}
