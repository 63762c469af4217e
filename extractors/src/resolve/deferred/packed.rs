//! The first uses and dotted chains of a file packed into bytes while the file waits for the
//! type indexes.
//!
//! Every Java, Kotlin and C# file keeps its first uses and chains from the end of its first pass
//! to its second, so at the fullest point of a run all of them are held at once: on a C#
//! repository of 5,000 files, about 200,000 names and 70,000 chains. Unpacked, an entry is a
//! 28-byte record beside its text; packed, it is a few bytes of LEB128 numbers, and a name
//! shares its prefix with the name before it (the names are sorted). A file's entries are
//! unpacked into a [`NameAnchors`] or [`Chains`] one file at a time, in its second pass.

use std::borrow::Cow;
use std::collections::BTreeMap;

use tree_sitter::Node;

use super::{Anchor, Anchors, Chains, NameAnchors};

/// [`NameAnchors`], packed.
#[derive(Debug, Default)]
pub(crate) struct PackedNames {
    bytes: Box<[u8]>,
}

impl PackedNames {
    /// The first uses of a file's names, with their interned scopes.
    pub fn new<'a>(uses: BTreeMap<Cow<'a, str>, (Node<'a>, u32)>, anchors: &Anchors<'a>) -> Self {
        let mut writer = Writer::default();
        writer.number(uses.len());
        writer.number(uses.keys().map(|name| name.len()).sum());
        let mut previous = "";
        for (name, (node, scope)) in &uses {
            writer.text_after(previous, name);
            writer.anchor(anchors.at_scope(*node, *scope));
            previous = name;
        }
        Self {
            bytes: writer.into_bytes(),
        }
    }

    /// The names and anchors, unpacked.
    pub fn unpack(&self) -> NameAnchors {
        let mut reader = Reader::new(&self.bytes);
        let count = reader.number().unwrap_or(0);
        let text_len = reader.number().unwrap_or(0);
        // Sized as written (by this process; each entry takes a byte at least, so no count read
        // back reserves more than the bytes hold).
        let mut names = NameAnchors {
            text: String::with_capacity(text_len),
            entries: Vec::with_capacity(count.min(self.bytes.len())),
        };
        read_entries(&mut reader, count, &mut names.text, &mut names.entries);
        names
    }
}

/// [`Chains`], packed ([`ChainPacker`] packs them one by one).
#[derive(Debug, Default)]
pub(crate) struct PackedChains {
    bytes: Box<[u8]>,
    /// How many chains there are, and the length of their joined text.
    count: usize,
    text_len: usize,
}

/// Packs chains one by one into a [`PackedChains`].
#[derive(Default)]
pub(crate) struct ChainPacker {
    writer: Writer,
    count: usize,
    text_len: usize,
    /// The last chain's text, which the next one is written after.
    previous: String,
}

impl ChainPacker {
    /// Adds a chain.
    pub fn push(&mut self, segments: &[String], anchor: Anchor) {
        // The segments of a chain joined by `\n`, which no name holds (as `Chains` keeps them).
        let mut text = String::with_capacity(
            segments.iter().map(String::len).sum::<usize>() + segments.len().saturating_sub(1),
        );
        for (position, segment) in segments.iter().enumerate() {
            if position > 0 {
                text.push('\n');
            }
            text.push_str(segment);
        }
        self.writer.text_after(&self.previous, &text);
        self.writer.anchor(anchor);
        self.count += 1;
        self.text_len += text.len();
        self.previous = text;
    }

    /// The chains pushed, without spare capacity: the chains of every file wait for the type
    /// indexes.
    pub fn finish(self) -> PackedChains {
        PackedChains {
            bytes: self.writer.into_bytes(),
            count: self.count,
            text_len: self.text_len,
        }
    }
}

impl PackedChains {
    /// Keeps `chains` ([`super::Walked::chains`]), in order.
    pub fn new<'a>(chains: &[(Vec<String>, Node<'a>, u32)], anchors: &Anchors<'a>) -> Self {
        let mut packer = ChainPacker::default();
        for (segments, node, scope) in chains {
            packer.push(segments, anchors.at_scope(*node, *scope));
        }
        packer.finish()
    }

    /// The chains and anchors, unpacked.
    pub fn unpack(&self) -> Chains {
        let mut reader = Reader::new(&self.bytes);
        let mut chains = Chains {
            text: String::with_capacity(self.text_len),
            entries: Vec::with_capacity(self.count.min(self.bytes.len())),
        };
        read_entries(
            &mut reader,
            self.count,
            &mut chains.text,
            &mut chains.entries,
        );
        chains
    }
}

/// Reads `count` texts, each with its anchor, into `text` and `entries` (the end of each text
/// in `text`, and its anchor), as [`PackedNames::new`] and [`ChainPacker::push`] wrote them.
fn read_entries(
    reader: &mut Reader<'_>,
    count: usize,
    text: &mut String,
    entries: &mut Vec<(u32, Anchor)>,
) {
    // Where the last text starts in `text`: the next is written after it.
    let mut previous = 0;
    for _ in 0..count {
        let start = text.len();
        let Some(anchor) = reader
            .text_after(text, previous)
            .and_then(|()| reader.anchor())
        else {
            break;
        };
        previous = start;
        entries.push((super::to_u32(text.len()), anchor));
    }
}

/// Writes LEB128 numbers, texts and anchors (read back by a [`Reader`]).
#[derive(Default)]
pub(crate) struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    /// What was written, without spare capacity.
    pub fn into_bytes(self) -> Box<[u8]> {
        self.bytes.into_boxed_slice()
    }

    pub fn number(&mut self, value: usize) {
        let mut value = value;
        loop {
            let low = (value & 0x7f) as u8;
            value >>= 7;
            if value == 0 {
                self.bytes.push(low);
                return;
            }
            self.bytes.push(low | 0x80);
        }
    }

    /// `text` as the length of the prefix it shares with `previous` (cut back to a character
    /// boundary), then the rest.
    pub fn text_after(&mut self, previous: &str, text: &str) {
        let mut shared = previous
            .bytes()
            .zip(text.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        while !text.is_char_boundary(shared) {
            shared -= 1;
        }
        let rest = text.get(shared..).unwrap_or_default();
        self.number(shared);
        self.number(rest.len());
        self.bytes.extend_from_slice(rest.as_bytes());
    }

    pub fn anchor(&mut self, anchor: Anchor) {
        let Anchor {
            start: (line, column),
            end: (end_line, end_column),
            start_byte,
            scope,
        } = anchor;
        self.number(line as usize);
        self.number(column as usize);
        // The end is most often on the start's line, a few columns on.
        let lines = end_line.checked_sub(line);
        match lines {
            Some(0) if end_column >= column => {
                self.number(0);
                self.number((end_column - column) as usize);
            }
            _ => {
                self.number(1);
                self.number(end_line as usize);
                self.number(end_column as usize);
            }
        }
        self.number(start_byte as usize);
        // `NO_SCOPE` (`u32::MAX`) as 0, scope `n` as `n + 1`.
        self.number(scope.wrapping_add(1) as usize);
    }
}

/// Reads what a [`Writer`] wrote; `None` past the end (which the writer never leaves).
pub(crate) struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    pub fn new(bytes: &'b [u8]) -> Self {
        Self { bytes, at: 0 }
    }

    pub fn number(&mut self) -> Option<usize> {
        let mut value = 0usize;
        let mut shift = 0u32;
        loop {
            let byte = *self.bytes.get(self.at)?;
            self.at += 1;
            value |= usize::from(byte & 0x7f).checked_shl(shift)?;
            if byte & 0x80 == 0 {
                return Some(value);
            }
            shift += 7;
        }
    }

    /// The next text, written after `previous` ([`Writer::text_after`]).
    pub fn text_following(&mut self, previous: &str) -> Option<String> {
        let shared = self.number()?;
        let rest_len = self.number()?;
        let mut text = previous.get(..shared)?.to_owned();
        let rest = self.bytes.get(self.at..self.at.checked_add(rest_len)?)?;
        text.push_str(std::str::from_utf8(rest).ok()?);
        self.at += rest_len;
        Some(text)
    }

    fn number_u32(&mut self) -> Option<u32> {
        u32::try_from(self.number()?).ok()
    }

    /// Appends to `text` the next text, written after the one that starts at `start` in it.
    fn text_after(&mut self, text: &mut String, start: usize) -> Option<()> {
        let shared = self.number()?;
        let rest_len = self.number()?;
        let previous = text.get(start..)?;
        let prefix_end = start.checked_add(shared)?;
        previous.get(..shared)?;
        let rest = self.bytes.get(self.at..self.at.checked_add(rest_len)?)?;
        let rest = std::str::from_utf8(rest).ok()?;
        self.at += rest_len;
        text.extend_from_within(start..prefix_end);
        text.push_str(rest);
        Some(())
    }

    pub fn anchor(&mut self) -> Option<Anchor> {
        let line = self.number_u32()?;
        let column = self.number_u32()?;
        let end = match self.number()? {
            0 => (line, column.checked_add(self.number_u32()?)?),
            _ => (self.number_u32()?, self.number_u32()?),
        };
        let start_byte = self.number_u32()?;
        let scope = self.number_u32()?.wrapping_sub(1);
        Some(Anchor {
            start: (line, column),
            end,
            start_byte,
            scope,
        })
    }
}

/// Anchors of every shape a packing must keep: one line, several lines, empty (a `MISSING`
/// node), the largest positions, and no scope.
#[cfg(test)]
pub(crate) fn test_anchors() -> [Anchor; 5] {
    let anchor = |start, end, start_byte, scope| Anchor {
        start,
        end,
        start_byte,
        scope,
    };
    [
        anchor((1, 1), (1, 4), 0, super::NO_SCOPE),
        anchor((3, 9), (7, 2), 40, 0),
        anchor((5, 5), (5, 5), 77, 3),
        anchor(
            (u32::MAX, u32::MAX),
            (u32::MAX, u32::MAX),
            u32::MAX,
            u32::MAX - 1,
        ),
        anchor((2, 30), (2, 1), 12, 1),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anchor(start: (u32, u32), end: (u32, u32), start_byte: u32, scope: u32) -> Anchor {
        Anchor {
            start,
            end,
            start_byte,
            scope,
        }
    }

    /// Every number, text and anchor a file can give comes back unchanged: names that share
    /// prefixes (cut inside a multi-byte character), an empty name, anchors that end on a later
    /// line or (a `MISSING` node) where they start, huge positions and no scope.
    #[test]
    fn what_is_packed_is_unpacked() {
        let anchors = test_anchors();
        let names = ["", "Order", "OrderService", "Ordér", "Ordèr", "Zeta"];
        let mut writer = Writer::default();
        writer.number(names.len());
        writer.number(names.iter().map(|name| name.len()).sum());
        let mut previous = "";
        for (name, anchor) in names.iter().zip(anchors.iter().cycle()) {
            writer.text_after(previous, name);
            writer.anchor(*anchor);
            previous = name;
        }
        let packed = PackedNames {
            bytes: writer.bytes.into_boxed_slice(),
        };
        let unpacked: Vec<(String, Anchor)> = packed
            .unpack()
            .iter()
            .map(|(name, anchor)| (name.to_owned(), anchor))
            .collect();
        let expected: Vec<(String, Anchor)> = names
            .iter()
            .zip(anchors.iter().cycle())
            .map(|(name, anchor)| ((*name).to_owned(), *anchor))
            .collect();
        assert_eq!(unpacked, expected);

        let mut chains = ChainPacker::default();
        let written: [&[&str]; 5] = [
            &["com", "acme", "Foo"],
            &["com", "acme", "Bar"],
            &["com"],
            &["ü", "x"],
            &["ü", "y"],
        ];
        for (segments, anchor) in written.iter().zip(anchors.iter().cycle()) {
            let segments: Vec<String> = segments.iter().map(|s| (*s).to_owned()).collect();
            chains.push(&segments, *anchor);
        }
        let unpacked = chains.finish().unpack();
        let read: Vec<(Vec<&str>, Anchor)> = unpacked.iter().collect();
        let expected: Vec<(Vec<&str>, Anchor)> = written
            .iter()
            .zip(anchors.iter().cycle())
            .map(|(segments, anchor)| (segments.to_vec(), *anchor))
            .collect();
        assert_eq!(read, expected);
    }

    /// A name is a few bytes, not a 28-byte record beside its text.
    #[test]
    fn a_packed_name_is_small() {
        let mut writer = Writer::default();
        writer.text_after("IOrganizationRepository", "IOrganizationService");
        writer.anchor(anchor((120, 17), (120, 37), 4_321, 2));
        assert!(writer.bytes.len() <= 16, "{} bytes", writer.bytes.len());
    }
}
