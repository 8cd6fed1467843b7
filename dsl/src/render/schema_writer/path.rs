//! Where the writer is: the JSON pointer into the output and the dotted IR parameter path, kept
//! as stacks of borrowed segments and turned into text only when a change or an error names
//! the place (most nodes record nothing, and escaping every segment of every node was a tenth
//! of a cold render).

use crate::pointer::JsonPointer;

/// One segment of the output pointer or of the parameter path (one stack holds both).
#[derive(Clone, Copy)]
enum Seg<'a> {
    /// A pointer key (escaped when the pointer is written).
    Key(&'a str),
    /// A pointer array index.
    Index(usize),
    /// A parameter name, joined to what precedes it with a dot (`filter.limit`).
    Name(&'a str),
    /// Parameter text joined without a dot (`[]`).
    Suffix(&'static str),
    /// A union variant of the parameter path (`|2`).
    Variant(usize),
    /// The parameter path starts anew here (definitions are named from `$defs`).
    Reset,
}

/// The pointer and the parameter path of the node being written.
pub(super) struct Path<'a> {
    base: &'a JsonPointer,
    segs: Vec<Seg<'a>>,
}

/// A depth to return to ([`Path::restore`]).
#[derive(Clone, Copy)]
pub(super) struct Mark(usize);

impl<'a> Path<'a> {
    /// The path at `base` (the pointer of the schema's root in the output).
    pub(super) fn new(base: &'a JsonPointer) -> Self {
        Path { base, segs: Vec::with_capacity(16) }
    }

    /// The current depth.
    pub(super) fn mark(&self) -> Mark {
        Mark(self.segs.len())
    }

    /// Back to the depth of `mark`.
    pub(super) fn restore(&mut self, mark: Mark) {
        self.segs.truncate(mark.0);
    }

    /// One more pointer segment.
    pub(super) fn key(&mut self, key: &'a str) {
        self.segs.push(Seg::Key(key));
    }

    /// One more pointer segment: an array index.
    pub(super) fn index(&mut self, index: usize) {
        self.segs.push(Seg::Index(index));
    }

    /// One more parameter name (after a dot).
    pub(super) fn name(&mut self, name: &'a str) {
        self.segs.push(Seg::Name(name));
    }

    /// Text appended to the parameter path without a dot.
    pub(super) fn suffix(&mut self, text: &'static str) {
        self.segs.push(Seg::Suffix(text));
    }

    /// A union variant of the parameter path.
    pub(super) fn variant(&mut self, index: usize) {
        self.segs.push(Seg::Variant(index));
    }

    /// The parameter path starts anew from here (until restored to a mark before this).
    pub(super) fn reset_param(&mut self) {
        self.segs.push(Seg::Reset);
    }

    /// The pointer as text, in one allocation (a key that needs escaping may add a few bytes).
    pub(super) fn pointer(&self) -> JsonPointer {
        let room = self.segs.iter().fold(self.base.len(), |n, seg| match *seg {
            Seg::Key(k) => n + 1 + k.len(),
            Seg::Index(_) => n + 1 + INDEX_DIGITS,
            _ => n,
        });
        let mut p = JsonPointer::with_capacity(room);
        p.push_pointer(self.base);
        for seg in &self.segs {
            match *seg {
                Seg::Key(k) => p.push(k),
                Seg::Index(i) => p.push_index(i),
                _ => {}
            }
        }
        p
    }

    /// The dotted parameter path as text, in one allocation.
    pub(super) fn param(&self) -> String {
        // From the last reset on: what precedes it is cleared.
        let start =
            self.segs.iter().rposition(|seg| matches!(seg, Seg::Reset)).map_or(0, |i| i + 1);
        let segs = &self.segs[start..];
        let room = segs.iter().fold(0, |n, seg| match *seg {
            Seg::Name(name) => n + 1 + name.len(),
            Seg::Suffix(t) => n + t.len(),
            Seg::Variant(_) => n + 1 + INDEX_DIGITS,
            _ => n,
        });
        let mut s = String::with_capacity(room);
        for seg in segs {
            match *seg {
                Seg::Name(n) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(n);
                }
                Seg::Suffix(t) => s.push_str(t),
                Seg::Variant(i) => {
                    s.push('|');
                    s.push_str(itoa::Buffer::new().format(i));
                }
                Seg::Reset | Seg::Key(_) | Seg::Index(_) => {}
            }
        }
        s
    }
}

/// Room for the digits of an index (few indexes in a schema pass three digits).
const INDEX_DIGITS: usize = 3;
