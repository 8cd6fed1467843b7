//! A fixed-size text buffer written by `const fn`: how the compile-time checks build the
//! messages they panic with, since `const fn` can neither allocate nor format.

use crate::literal::{Literal, text_str};

/// The buffer's capacity in bytes; text beyond it is cut at a character boundary.
pub(crate) const CAP: usize = 480;

/// Text built in `const`, at most [`CAP`] bytes, always valid UTF-8.
#[derive(Clone, Copy)]
pub(crate) struct ConstText {
    buf: [u8; CAP],
    len: usize,
}

impl ConstText {
    /// No text.
    pub(crate) const EMPTY: ConstText = ConstText { buf: [0; CAP], len: 0 };

    /// The length written so far, in bytes.
    pub(crate) const fn len(&self) -> usize {
        self.len
    }

    /// The text written so far.
    pub(crate) const fn as_str(&self) -> &str {
        str_slice(&self.buf, 0, self.len)
    }

    /// The bytes `start..end` of the text.
    pub(crate) const fn slice(&self, start: usize, end: usize) -> &str {
        str_slice(&self.buf, start, end)
    }

    /// Appends `s`, cutting it at a character boundary when the buffer is full.
    pub(crate) const fn s(&mut self, s: &str) -> &mut Self {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() && self.len < CAP {
            // Never cut a UTF-8 sequence in half: stop before a lead byte that would not fit.
            let b = bytes[i];
            let width = if b < 0x80 {
                1
            } else if b >= 0xF0 {
                4
            } else if b >= 0xE0 {
                3
            } else {
                2
            };
            if self.len + width > CAP {
                break;
            }
            let mut k = 0;
            while k < width && i + k < bytes.len() {
                self.buf[self.len] = bytes[i + k];
                self.len += 1;
                k += 1;
            }
            i += width;
        }
        self
    }

    /// Appends a decimal integer.
    pub(crate) const fn int(&mut self, n: i64) -> &mut Self {
        if n < 0 {
            self.s("-");
        }
        let mut digits = [0u8; 20];
        let mut count = 0;
        let mut m = n.unsigned_abs();
        loop {
            digits[count] = b'0' + (m % 10) as u8;
            count += 1;
            m /= 10;
            if m == 0 {
                break;
            }
        }
        while count > 0 {
            count -= 1;
            let d = [digits[count]];
            self.s(str_slice(&d, 0, 1));
        }
        self
    }

    /// Appends an unsigned integer ("a very large number" beyond `i64::MAX`).
    pub(crate) const fn uint(&mut self, n: u64) -> &mut Self {
        if n > i64::MAX as u64 { self.s("a very large number") } else { self.int(n as i64) }
    }

    /// Writes a float with up to six decimals (enough to tell bounds apart in a message).
    pub(crate) const fn float(&mut self, f: f64) -> &mut Self {
        if f.is_nan() {
            return self.s("NaN");
        }
        if f.is_infinite() {
            return self.s(if f > 0.0 { "infinity" } else { "-infinity" });
        }
        if f < 0.0 {
            self.s("-");
        }
        let a = if f < 0.0 { -f } else { f };
        if a >= 9.0e18 {
            return self.s("a very large number");
        }
        let whole = a as i64;
        let mut frac = ((a - whole as f64) * 1_000_000.0 + 0.5) as i64;
        let mut whole = whole;
        if frac >= 1_000_000 {
            whole += 1;
            frac -= 1_000_000;
        }
        self.int(whole);
        if frac > 0 {
            self.s(".");
            let mut width = 6;
            while frac % 10 == 0 {
                frac /= 10;
                width -= 1;
            }
            let mut pad = width;
            let mut t = frac;
            while t > 0 {
                t /= 10;
                pad -= 1;
            }
            while pad > 0 {
                self.s("0");
                pad -= 1;
            }
            self.int(frac);
        }
        self
    }

    /// Appends a literal as a message shows it: scalars by value, arrays and objects by kind.
    pub(crate) const fn lit(&mut self, l: &Literal) -> &mut Self {
        match l {
            Literal::Null => self.s("null"),
            Literal::Bool(true) => self.s("true"),
            Literal::Bool(false) => self.s("false"),
            Literal::Int(i) => self.int(*i),
            Literal::Float(f) => self.float(*f),
            Literal::Str(s) => self.s("\"").s(text_str(s)).s("\""),
            Literal::List(_) => self.s("an array"),
            Literal::Object(_) => self.s("an object"),
        }
    }
}

/// The bytes `start..end` of `buf` as a string, empty when they are not UTF-8 (usable in `const`).
pub(crate) const fn str_slice(buf: &[u8], start: usize, end: usize) -> &str {
    let (head, _) = buf.split_at(end);
    let (_, part) = head.split_at(start);
    match std::str::from_utf8(part) {
        Ok(s) => s,
        Err(_) => "",
    }
}
