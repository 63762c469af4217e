//! Where a token or syntax node is: the spec file and the byte and line/column position, shared by
//! the syntax tree and the coded errors ([`crate::error`]).

/// Identifies one loaded spec file; an index into the file table of one compilation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FileId(pub u32);

/// Where a token or syntax node is: byte offsets plus the 1-based line and column of `start`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// The file.
    pub file: FileId,
    /// 0-based byte offset of the start.
    pub start: usize,
    /// 0-based exclusive byte offset of the end.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: u32,
    /// 1-based column of `start`, in Unicode scalar values.
    pub column: u32,
}

impl Span {
    /// The span from the start of `self` to the end of `other`.
    #[must_use]
    pub fn to(self, other: Span) -> Span {
        Span {
            end: other.end.max(self.start),
            ..self
        }
    }

    /// The start of the file.
    pub fn file_start(file: FileId) -> Span {
        Span {
            file,
            start: 0,
            end: 0,
            line: 1,
            column: 1,
        }
    }
}
